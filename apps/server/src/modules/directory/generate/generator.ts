import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import path from 'node:path';
import { normalize } from '../normalize.ts';
import { csvLine, endpointHeader, npiCheckDigit, npidataHeader } from '../import/nppes-format.ts';
import { endpointFields, npidataFields, type NppesAddress, type NppesEndpoint, type NppesProvider } from './nppes-rows.ts';
import * as world from './world.ts';

// `npm run directory:generate`: an NPPES-shaped directory of any size with real-world skew, the same for a given
// seed, streamed to disk in constant memory.

/** sfc32: small, fast, 128 bits of state; plenty for 9 million providers. */
export function random(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** Picks index i with probability weights[i] / sum. */
function weighted(weights: readonly number[]): (r: number) => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w));
  return (r) => {
    const target = r * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

const zipf = (n: number, s = 1) => weighted(Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s));

const pickState = weighted(world.states.map(([, population]) => population));
const pickCity = world.states.map(([, , cities]) => weighted(cities.map((c) => c[3])));
const pickCommonSurname = zipf(world.commonSurnames.length);
const pickMale = zipf(world.maleFirstNames.length, 0.8);
const pickFemale = zipf(world.femaleFirstNames.length, 0.8);
const pickIndividualTaxonomy = zipf(world.individualTaxonomies.length, 0.9);
const pickOrganizationTaxonomy = zipf(world.organizationTaxonomies.length, 0.9);
const pickZipSuffix = zipf(60, 0.7);
// Synthetic rare surnames: rank drawn log-uniformly from 1..RARE (a Zipf tail with s = 1).
const RARE = 2_000_000;

const NPI_SPACE = 200_000_000;
const NPI_STRIDE = 1_000_003;

/** The i-th provider's NPI: a bijection on 9-digit bases starting 1 or 2 (unique for i < 200 million), Luhn-checked. */
export function generatedNpi(i: number, seed: number): string {
  const offset = (Math.abs(seed) * 7_919_993) % NPI_SPACE;
  const base = String(100_000_000 + ((i * NPI_STRIDE + offset) % NPI_SPACE));
  return base + npiCheckDigit(base);
}

interface Drawn {
  provider: NppesProvider;
  endpoints: NppesEndpoint[];
}

/** The providers of a seed, one by one: generation holds nothing but the current one. */
export function* generateProviders(count: number, seed = 1): Generator<Drawn> {
  const r = random(seed);
  // The authorized official's details draw from a stream of their own, so the rest of a seed's directory stays as it was.
  const ro = random(seed ^ 0x5f3759df);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const digits = (n: number) => String(Math.floor(r() * 10 ** n)).padStart(n, '0');
  const date = (from: number, to: number) => {
    const year = from + Math.floor(r() * (to - from + 1));
    return `${String(1 + Math.floor(r() * 12)).padStart(2, '0')}/${String(1 + Math.floor(r() * 28)).padStart(2, '0')}/${year}`;
  };
  const surname = (): string => {
    const u = r();
    if (u < 0.02) return pick(world.markedSurnames);
    if (u < 0.4) return world.commonSurnames[pickCommonSurname(r())]!;
    let rank = Math.floor(RARE ** r());
    let name = '';
    const syllables = world.surnameSyllables;
    do {
      name += syllables[rank % syllables.length];
      rank = Math.floor(rank / syllables.length);
    } while (rank > 0 || name.length < 5);
    return name;
  };
  const phone = (area: string) => `${area}${2 + Math.floor(r() * 8)}${digits(6)}`;
  const address = (): NppesAddress => {
    const state = pickState(r());
    const [code, , cities] = world.states[state]!;
    const [city, zip3, area] = cities[pickCity[state]!(r())]!;
    const zip5 = `${zip3}${String(pickZipSuffix(r()) + 1).padStart(2, '0')}`;
    return {
      line1: `${1 + Math.floor(r() ** 2 * 9999)} ${pick(world.streets)}`,
      line2: r() < 0.25 ? `${pick(['SUITE', 'STE', 'UNIT'])} ${100 + Math.floor(r() * 900)}` : '',
      city,
      state: code,
      postalCode: r() < 0.75 ? zip5 + digits(4) : zip5,
      phone: phone(area),
      fax: r() < 0.6 ? phone(area) : '',
    };
  };

  for (let i = 0; i < count; i++) {
    const npi = generatedNpi(i, seed);
    const kind = r();
    if (kind < 0.01) {
      // As NPPES writes a deactivated NPI: its number, reason and date, every other field blank.
      yield { provider: { npi, entityType: null, deactivationReason: pick(['DT', 'DB', 'FR', 'OT']), deactivationDate: date(2010, 2025) }, endpoints: [] };
      continue;
    }
    const practice = address();
    const mailing = r() < 0.8 ? practice : { ...address(), line1: `PO BOX ${1 + Math.floor(r() * 9999)}`, line2: '' };
    const individual = r() < 0.79;
    const enumerated = date(2005, 2024);
    const provider: NppesProvider = { npi, entityType: individual ? 1 : 2, practice, mailing, enumerationDate: enumerated, lastUpdateDate: date(Number(enumerated.slice(6)), 2025) };
    if (kind < 0.012) {
      provider.deactivationReason = 'OT';
      provider.deactivationDate = date(2008, 2015);
      provider.reactivationDate = date(2016, 2024);
    }
    if (individual) {
      const female = r() < 0.5;
      const taxonomies = [world.individualTaxonomies[pickIndividualTaxonomy(r())]!];
      if (r() < 0.2) taxonomies.push(world.individualTaxonomies[pickIndividualTaxonomy(r())]!);
      const primary = Math.floor(r() * taxonomies.length);
      const first = r() < 0.01 ? pick(world.markedFirstNames) : female ? world.femaleFirstNames[pickFemale(r())]! : world.maleFirstNames[pickMale(r())]!;
      const middle = r();
      Object.assign(provider, {
        lastName: surname(),
        firstName: first,
        middleName: middle < 0.4 ? pick([...'ABCDEFGHIJKLMNOPRSTW']) : middle < 0.6 ? pick(female ? world.femaleFirstNames : world.maleFirstNames) : '',
        namePrefix: r() < 0.1 ? 'DR.' : '',
        credential: taxonomies[primary]![1],
        gender: female ? 'F' : 'M',
        soleProprietor: r() < 0.1 ? 'Y' : 'N',
        taxonomies: taxonomies.map(([code], t) => ({ code, license: `${pick(['A', 'MD', 'RN', ''])}${digits(6)}`, licenseState: practice.state, primary: t === primary })),
      } satisfies Partial<NppesProvider>);
    } else {
      const name = world.organizationPatterns[Math.floor(r() * world.organizationPatterns.length)]!
        .replace('{last}', surname())
        .replace('{last2}', surname())
        .replace('{city}', practice.city)
        .replace('{adj}', pick(world.organizationAdjectives))
        .replace('{specialty}', pick(world.organizationSpecialties));
      const codes = [world.organizationTaxonomies[pickOrganizationTaxonomy(r())]!];
      if (r() < 0.25) codes.push(world.organizationTaxonomies[pickOrganizationTaxonomy(r())]!);
      Object.assign(provider, {
        ein: '<UNAVAIL>',
        organizationName: name,
        ...(r() < 0.15 ? { otherOrganizationName: `${pick(world.organizationAdjectives)} ${pick(world.organizationSpecialties)}`, otherOrganizationNameType: '3' } : {}),
        official: official(surname(), pick(world.femaleFirstNames), pick(world.officialTitles), practice, ro),
        organizationSubpart: r() < 0.2 ? 'Y' : 'N',
        taxonomies: codes.map((code, t) => ({ code, license: r() < 0.5 ? digits(7) : '', licenseState: practice.state, primary: t === 0 })),
      } satisfies Partial<NppesProvider>);
    }
    yield { provider, endpoints: endpointsOf(provider, r) };
  }
}

// As in the real file: a middle name or initial for most, a prefix for many, now and then a suffix or credential, and
// about half the time the official's own telephone number rather than the practice's.
function official(lastName: string, firstName: string, title: string, practice: NppesAddress, ro: () => number): NonNullable<NppesProvider['official']> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(ro() * list.length)]!;
  const middle = ro();
  const ownPhone = ro() < 0.45;
  const area = practice.phone?.slice(0, 3) ?? '800';
  return {
    lastName,
    firstName,
    middleName: middle < 0.35 ? pick([...'ABCDEFGHJKLMNPRSTW']) : middle < 0.6 ? pick(world.maleFirstNames.concat(world.femaleFirstNames)) : '',
    title,
    phone: ownPhone ? `${area}${2 + Math.floor(ro() * 8)}${String(Math.floor(ro() * 1e6)).padStart(6, '0')}` : (practice.phone ?? ''),
    namePrefix: ro() < 0.6 ? pick(['MR.', 'MS.', 'MRS.', 'DR.']) : '',
    nameSuffix: ro() < 0.05 ? pick(['JR.', 'SR.', 'III']) : '',
    credential: ro() < 0.15 ? pick(['MD', 'M.D.', 'DO', 'RN', 'MBA']) : '',
  };
}

function endpointsOf(p: NppesProvider, r: () => number): NppesEndpoint[] {
  const endpoints: NppesEndpoint[] = [];
  const slug = (normalize(p.organizationName ?? `${p.lastName} ${p.practice?.city}`).replaceAll(' ', '') || 'clinic').slice(0, 24);
  if (r() < 0.2) {
    const u = r();
    const count = u < 0.85 ? 1 : u < 0.97 ? 2 : 3;
    const person = normalize(`${p.firstName?.[0] ?? ''}${p.lastName ?? ''}`).replaceAll(' ', '');
    const locals = p.entityType === 1 ? [person || 'provider', `${person}.md`, 'referrals'] : ['intake', 'referrals', 'records'];
    for (let n = 0; n < count; n++) {
      let endpoint = `${locals[n]}@${n === 2 ? `${slug}.hisp-direct.net` : `direct.${slug}.org`}`;
      const style = r();
      if (style < 0.2) endpoint = `mailto:${endpoint}`;
      else if (style < 0.25) endpoint = `MAILTO:${endpoint.toUpperCase()}`;
      else if (style < 0.3) endpoint = endpoint.toUpperCase();
      endpoints.push({
        npi: p.npi,
        type: 'DIRECT',
        typeDescription: 'Direct Messaging Address',
        endpoint,
        affiliation: p.entityType === 2 ? 'N' : 'Y',
        affiliationName: p.organizationName ?? `${p.lastName} CLINIC`,
        useCode: 'DIRECT',
        useDescription: 'Direct',
        contentType: 'OTHER',
        contentDescription: 'Other',
        address: p.practice,
      });
    }
  }
  if (r() < 0.03) {
    endpoints.push({ npi: p.npi, type: 'FHIR', typeDescription: 'FHIR URL', endpoint: `https://fhir.${slug}.org/r4`, useCode: 'OTHERS', contentType: 'OTHER' });
  }
  return endpoints;
}

/** endpoint_pfile… beside npidata_pfile…, as NPPES names them; otherwise "endpoint_" + the base name. */
export function endpointFileFor(out: string): string {
  const base = path.basename(out);
  return path.join(path.dirname(out), base.includes('npidata_pfile') ? base.replace('npidata_pfile', 'endpoint_pfile') : `endpoint_${base}`);
}

// Lines gathered into ~1 MB writes; the caller awaits flush() when add() says so (the disk's backpressure).
class LineWriter {
  private parts: string[] = [];
  private size = 0;
  private error: Error | undefined;
  constructor(private readonly stream: WriteStream) {
    // Kept for the next flush: an unopenable path or a full disk ends the run with its message.
    stream.on('error', (error) => (this.error ??= error));
  }
  add(line: string): boolean {
    this.parts.push(line);
    this.size += line.length;
    return this.size >= 1 << 20;
  }
  async flush(): Promise<void> {
    if (this.error) throw this.error;
    if (!this.parts.length) return;
    const chunk = `${this.parts.join('\n')}\n`;
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await finished(this.stream).catch((error: Error) => {
      throw this.error ?? error;
    });
  }
}

export interface GenerateOptions {
  providers: number;
  out: string;
  seed?: number;
  onProgress?: (written: number) => void;
}

export interface GenerateResult {
  npidataFile: string;
  endpointFile: string;
  providers: number;
  individuals: number;
  organizations: number;
  deactivated: number;
  directAddresses: number;
  providersWithDirect: number;
}

export async function generateNppesFiles(options: GenerateOptions): Promise<GenerateResult> {
  const endpointFile = endpointFileFor(options.out);
  const result: GenerateResult = {
    npidataFile: options.out,
    endpointFile,
    providers: options.providers,
    individuals: 0,
    organizations: 0,
    deactivated: 0,
    directAddresses: 0,
    providersWithDirect: 0,
  };
  const npidata = new LineWriter(createWriteStream(options.out));
  const endpoints = new LineWriter(createWriteStream(endpointFile));
  npidata.add(csvLine(npidataHeader()));
  endpoints.add(csvLine(endpointHeader));
  let written = 0;
  for (const { provider, endpoints: rows } of generateProviders(options.providers, options.seed ?? 1)) {
    if (provider.entityType === 1) result.individuals++;
    else if (provider.entityType === 2) result.organizations++;
    if (provider.deactivationDate && !provider.reactivationDate) result.deactivated++;
    const direct = rows.filter((e) => e.type === 'DIRECT').length;
    result.directAddresses += direct;
    if (direct) result.providersWithDirect++;
    if (npidata.add(csvLine(npidataFields(provider)))) await npidata.flush();
    for (const row of rows) if (endpoints.add(csvLine(endpointFields(row)))) await endpoints.flush();
    if (++written % 10_000 === 0) options.onProgress?.(written);
  }
  await Promise.all([npidata.close(), endpoints.close()]);
  options.onProgress?.(written);
  return result;
}
