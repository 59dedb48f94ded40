import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DOMParser, type Element as XmlElement, type Node as XmlNode } from '@xmldom/xmldom';
import { fixturesDir } from './shared-fixtures.ts';

// The official C-CDA R2.1 Schematron is a shared fixture, outside the project: tests read it by path.
export const CCDA_SCHEMATRON = path.join(fixturesDir, 'ccda-schematron/ccda-r2.1.sch');

// A small Schematron evaluator (ISO Schematron over XPath 1.0, the subset the C-CDA file uses:
// phases, patterns, abstract rules with sch:extends, rule-level sch:let, assert, value-of). It
// needs nothing installed and nothing downloaded, unlike xsltproc with the ISO skeleton XSLT.
// Semantics as in the skeleton: in each pattern a node is checked only by the first rule whose
// context matches it. Rules that look values up in voc.xml (document(...)) cannot run without the
// value sets, which are not in the fixtures: their assertions are counted as skipped, not failed.

const SCH = 'http://purl.oclc.org/dsdl/schematron';

interface ParsedXPath {
  evaluateBoolean(options: XPathOptions): boolean;
  evaluateString(options: XPathOptions): string;
  select(options: XPathOptions): XmlNode[];
  evaluate(options: XPathOptions): unknown;
}
interface XPathOptions {
  node: XmlNode;
  namespaces: Record<string, string>;
  variables?: Record<string, unknown>;
}
// `parse` (compile once, evaluate with variables) is in xpath's runtime but not in its typings, and those
// typings pull the browser's DOM library into the server's compilation: the module is required untyped.
const xpathModule = createRequire(import.meta.url)('xpath') as { parse: (expression: string) => ParsedXPath };
// XPath allows space between a function's name and its "(" (one assertion writes `not (`); the
// xpath package's lexer does not, so it is closed up first.
const FUNCTION_SPACE = /\b(not|count|contains|starts-with|string-length|normalize-space|string|concat|number|sum|boolean|text)\s+\(/g;
const parseXPath = (expression: string): ParsedXPath => xpathModule.parse(expression.replace(FUNCTION_SPACE, '$1('));

interface Assertion {
  id: string;
  test: string;
  compiled: ParsedXPath | null;
  message: XmlElement;
}
interface Rule {
  id: string;
  context: ParsedXPath;
  lets: { name: string; value: ParsedXPath }[];
  asserts: Assertion[];
}
interface Pattern {
  id: string;
  rules: Rule[];
}
interface Schema {
  namespaces: Record<string, string>;
  phases: Record<string, Pattern[]>;
}

export interface SchematronFailure {
  pattern: string;
  /** The assertion's id (e.g. a-1198-5259), the rule's when the assertion has none. */
  id: string;
  /** The CONF number(s) the message cites, e.g. CONF:1198-5259. */
  conformance: string;
  message: string;
  /** The failing node, as an XPath-like location. */
  location: string;
}

export interface SchematronResult {
  /** Failed assertions of the "errors" phase (the SHALL constraints). */
  errors: SchematronFailure[];
  /** Failed assertions of the "warnings" phase (SHOULD). */
  warnings: SchematronFailure[];
  /** Assertions that could not run because they need the absent voc.xml value sets. */
  skipped: number;
}

const schemas = new Map<string, Schema>();

const children = (node: XmlNode, localName: string): XmlElement[] => {
  const out: XmlElement[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as XmlElement).namespaceURI === SCH && (c as XmlElement).localName === localName) out.push(c as XmlElement);
  }
  return out;
};

// A rule context is an XSLT match pattern: `a/b[...]` matches such an element anywhere, so each
// alternative of a union is selected from the whole document unless it already starts at the root.
function contextExpression(pattern: string): string {
  const alternatives: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === '|' && depth === 0) {
      alternatives.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  alternatives.push(pattern.slice(start));
  return alternatives.map((a) => (a.trim().startsWith('/') ? a.trim() : `//${a.trim()}`)).join(' | ');
}

function compileAssert(element: XmlElement, owner: string): Assertion {
  const test = element.getAttribute('test') ?? 'true()';
  let compiled: ParsedXPath | null = null;
  // document('voc.xml') needs the value sets, which are out of scope (see above).
  if (!/\bdocument\s*\(/.test(test)) compiled = parseXPath(test);
  return { id: element.getAttribute('id') || owner, test, compiled, message: element };
}

function loadSchema(file: string): Schema {
  const cached = schemas.get(file);
  if (cached) return cached;
  const doc = new DOMParser().parseFromString(readFileSync(file, 'utf8'), 'text/xml');
  const root = doc.documentElement;
  if (!root) throw new Error(`Not a Schematron file: ${file}`);
  const namespaces: Record<string, string> = {};
  for (const ns of children(root, 'ns')) namespaces[ns.getAttribute('prefix') ?? ''] = ns.getAttribute('uri') ?? '';

  const abstractRules = new Map<string, XmlElement>();
  const patternElements = children(root, 'pattern');
  for (const p of patternElements) {
    for (const r of children(p, 'rule')) if (r.getAttribute('abstract') === 'true') abstractRules.set(r.getAttribute('id') ?? '', r);
  }
  const assertsOf = (rule: XmlElement, owner: string): Assertion[] => [
    ...children(rule, 'extends').flatMap((e) => {
      const base = abstractRules.get(e.getAttribute('rule') ?? '');
      if (!base) throw new Error(`Abstract rule not found: ${e.getAttribute('rule')}`);
      return assertsOf(base, owner);
    }),
    ...children(rule, 'assert').map((a) => compileAssert(a, owner)),
  ];
  const patterns = new Map<string, Pattern>();
  for (const p of patternElements) {
    const id = p.getAttribute('id') ?? '';
    const rules = children(p, 'rule')
      .filter((r) => r.getAttribute('abstract') !== 'true' && r.getAttribute('context'))
      .map((r) => ({
        id: r.getAttribute('id') ?? id,
        context: parseXPath(contextExpression(r.getAttribute('context') ?? '')),
        lets: children(r, 'let').map((l) => ({ name: l.getAttribute('name') ?? '', value: parseXPath(l.getAttribute('value') ?? "''") })),
        asserts: assertsOf(r, r.getAttribute('id') ?? id),
      }));
    patterns.set(id, { id, rules });
  }
  const phases: Record<string, Pattern[]> = {};
  for (const phase of children(root, 'phase')) {
    phases[phase.getAttribute('id') ?? ''] = children(phase, 'active').flatMap((a) => patterns.get(a.getAttribute('pattern') ?? '') ?? []);
  }
  const schema = { namespaces, phases };
  schemas.set(file, schema);
  return schema;
}

function location(node: XmlNode): string {
  const steps: string[] = [];
  for (let n: XmlNode | null = node; n && n.nodeType === 1; n = n.parentNode) {
    const el = n as XmlElement;
    let index = 1;
    for (let s = el.previousSibling; s; s = s.previousSibling) if (s.nodeType === 1 && (s as XmlElement).localName === el.localName) index++;
    steps.unshift(`${el.localName}[${index}]`);
  }
  return `/${steps.join('/')}`;
}

function messageText(assertion: Assertion, options: XPathOptions): string {
  let text = '';
  for (let c = assertion.message.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3) text += c.nodeValue ?? '';
    else if (c.nodeType === 1 && (c as XmlElement).localName === 'value-of') {
      try {
        text += parseXPath((c as XmlElement).getAttribute('select') ?? "''").evaluateString(options);
      } catch {
        text += '?';
      }
    }
  }
  return text.replace(/\s+/g, ' ').trim();
}

function runPhase(schema: Schema, phase: string, doc: XmlNode): { failures: SchematronFailure[]; skipped: number } {
  const failures: SchematronFailure[] = [];
  let skipped = 0;
  for (const pattern of schema.phases[phase] ?? []) {
    const fired = new Set<XmlNode>();
    for (const rule of pattern.rules) {
      const nodes = rule.context.select({ node: doc, namespaces: schema.namespaces });
      for (const node of nodes) {
        if (fired.has(node)) continue;
        fired.add(node);
        const variables: Record<string, unknown> = {};
        for (const l of rule.lets) {
          const value = l.value.evaluate({ node, namespaces: schema.namespaces, variables }) as { stringValue(): string };
          variables[l.name] = value.stringValue();
        }
        const options = { node, namespaces: schema.namespaces, variables };
        for (const a of rule.asserts) {
          if (!a.compiled) {
            skipped++;
            continue;
          }
          if (a.compiled.evaluateBoolean(options)) continue;
          const message = messageText(a, options);
          const conformance = [...message.matchAll(/CONF:[\d-]+/g)].map((m) => m[0]).join(', ');
          failures.push({ pattern: pattern.id, id: a.id, conformance, message, location: location(node) });
        }
      }
    }
  }
  return { failures, skipped };
}

/** Runs the C-CDA R2.1 Schematron's "errors" and "warnings" phases over a document. */
export function validateSchematron(xml: string, schematron = CCDA_SCHEMATRON): SchematronResult {
  const schema = loadSchema(schematron);
  const parseErrors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => void (level !== 'warning' && parseErrors.push(message)) }).parseFromString(xml, 'text/xml');
  if (parseErrors.length > 0) throw new Error(`Not well-formed XML: ${parseErrors.join('; ')}`);
  const errors = runPhase(schema, 'errors', doc);
  const warnings = runPhase(schema, 'warnings', doc);
  return { errors: errors.failures, warnings: warnings.failures, skipped: errors.skipped + warnings.skipped };
}

/** Failures counted per assertion id, for reports: { 'a-1198-5259': 2, ... }. */
export function countByRule(failures: SchematronFailure[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of failures) counts[f.id] = (counts[f.id] ?? 0) + 1;
  return counts;
}
