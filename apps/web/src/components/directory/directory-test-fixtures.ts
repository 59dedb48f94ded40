import { vi } from 'vitest';
import type { DirectoryEntry, DirectorySearchResponse } from '@clinicrelay/contracts/directory.ts';
import { json } from '../../app/app-test-harness.tsx';

// Test data of the directory dialogs and of the compose To field that uses them.

export function directoryEntry(overrides: Partial<DirectoryEntry> & Pick<DirectoryEntry, 'id'>): DirectoryEntry {
  return {
    directAddress: null,
    organizationName: null,
    lastName: null,
    firstName: null,
    middleName: null,
    clinicName: null,
    phonePrimary: null,
    fax: null,
    standardizedAddressLine1: null,
    standardizedCity: null,
    standardizedState: null,
    standardizedZip: null,
    npi: null,
    entityType: 1,
    taxonomy: null,
    source: 'NPPES',
    hosted: false,
    ...overrides,
  };
}

/** Providers "Provider1, Pat" … numbered from 1, each with a Direct address. */
export const numberedProviders = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => {
    const n = from + index;
    return directoryEntry({ id: `p-${n}`, lastName: `Provider${n}`, firstName: 'Pat', directAddress: `pat${n}@riverview.direct.example.org` });
  });

interface SearchBody {
  providerPageStart: number;
  organizationPageStart: number;
}

/**
 * POST /api/directory/search answered from two whole lists, paged by the request's providerPageStart and
 * organizationPageStart (10 a page); the totals are the lists' lengths unless given (the server caps them at 100).
 */
export function searchHandler(providers: DirectoryEntry[], organizations: DirectoryEntry[], totals: Partial<Pick<DirectorySearchResponse, 'totalProvidersCount' | 'totalOrganizationsCount'>> = {}) {
  return (body: unknown) => {
    const { providerPageStart, organizationPageStart } = body as SearchBody;
    return json(200, {
      providers: providers.slice(providerPageStart, providerPageStart + 10),
      totalProvidersCount: totals.totalProvidersCount ?? providers.length,
      organizations: organizations.slice(organizationPageStart, organizationPageStart + 10),
      totalOrganizationsCount: totals.totalOrganizationsCount ?? organizations.length,
    } satisfies DirectorySearchResponse);
  };
}

/** Replaces IntersectionObserver; `reveal()` tells the newest observer its element came into view. */
export function installIntersectionObserver() {
  const observers: { callback: IntersectionObserverCallback; target: Element | null; disconnected: boolean }[] = [];
  class StubIntersectionObserver {
    private readonly record: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback) {
      this.record = { callback, target: null, disconnected: false };
      observers.push(this.record);
    }
    observe(target: Element) {
      this.record.target = target;
    }
    unobserve() {}
    disconnect() {
      this.record.disconnected = true;
    }
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', StubIntersectionObserver);
  return {
    /** Whether an observer is watching (the list has more to load). */
    watching: () => observers.some((o) => !o.disconnected && o.target !== null),
    reveal: () => {
      const live = observers.filter((o) => !o.disconnected && o.target !== null);
      for (const observer of live) {
        observer.callback([{ isIntersecting: true, target: observer.target! } as IntersectionObserverEntry], observer as unknown as IntersectionObserver);
      }
    },
  };
}
