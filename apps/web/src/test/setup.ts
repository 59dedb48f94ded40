import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy/waitFor wait up to 5 s: debounced widgets on a loaded 2-core CI machine need more than 1 s.
configure({ asyncUtilTimeout: 5_000 });

// happy-dom lacks these browser APIs that Mantine components call on mount.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

// Every test starts signed out with no stored redirect; stubbed globals and spies are undone by the
// config (unstubGlobals, restoreMocks).
afterEach(() => {
  cleanup();
  // Toasts live in a module-level store: one left from the last test would match this test's text.
  notifications.clean();
  localStorage.clear();
  sessionStorage.clear();
});
