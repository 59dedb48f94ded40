// A small, bounded XML reader for metadata other systems send (XDM's METADATA.XML). The server has no XML
// parser: this one reads elements, attributes and text, knows only the five predefined entities and
// character references, and refuses a DOCTYPE outright, so no DTD, external entity or entity expansion
// can ever be processed. Names are kept without their namespace prefix (rim:Slot → Slot).

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const MAX_XML_CHARS = 20 * 1024 * 1024;
const MAX_ELEMENTS = 200_000;
const MAX_DEPTH = 64;

const PREDEFINED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,4});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED_ENTITIES[ref] ?? whole;
  });
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function readAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!;
    // Namespace declarations are not data, and a prefixed name is read by its local part like elements.
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    attributes[localName(name)] = decodeEntities(match[2] ?? match[3] ?? '');
  }
  return attributes;
}

// The '>' that ends a tag, skipping any inside quoted attribute values; -1 when there is none.
function tagEnd(xml: string, from: number): number {
  let quote = '';
  for (let i = from; i < xml.length; i++) {
    const c = xml[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

function fail(reason: string): never {
  throw new Error(`The XML could not be read: ${reason}.`);
}

/** The document element of an XML text; throws an Error saying why when the text is not XML this reader accepts. */
export function parseXml(xml: string): XmlElement {
  if (xml.length > MAX_XML_CHARS) fail(`it is larger than ${MAX_XML_CHARS / 1024 / 1024} MB`);
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let elementCount = 0;
  let position = 0;

  const appendText = (text: string) => {
    const current = stack.at(-1);
    if (current) current.text += text;
    else if (text.trim()) fail('there is text outside the document element');
  };

  while (position < xml.length) {
    const open = xml.indexOf('<', position);
    if (open < 0) {
      appendText(decodeEntities(xml.slice(position)));
      break;
    }
    if (open > position) appendText(decodeEntities(xml.slice(position, open)));

    if (xml.startsWith('<!--', open)) {
      const end = xml.indexOf('-->', open + 4);
      if (end < 0) fail('a comment is not closed');
      position = end + 3;
    } else if (xml.startsWith('<![CDATA[', open)) {
      const end = xml.indexOf(']]>', open + 9);
      if (end < 0) fail('a CDATA section is not closed');
      appendText(xml.slice(open + 9, end));
      position = end + 3;
    } else if (xml.startsWith('<?', open)) {
      const end = xml.indexOf('?>', open + 2);
      if (end < 0) fail('a processing instruction is not closed');
      position = end + 2;
    } else if (xml.startsWith('<!', open)) {
      fail(/^<!DOCTYPE/i.test(xml.slice(open, open + 9)) ? 'it declares a DTD (DOCTYPE), which is not accepted' : 'it holds a declaration that is not accepted');
    } else {
      const end = tagEnd(xml, open + 1);
      if (end < 0) fail('a tag is not closed');
      const tag = xml.slice(open + 1, end);
      position = end + 1;
      if (tag.startsWith('/')) {
        const name = localName(tag.slice(1).trim());
        const closed = stack.pop();
        if (!closed || closed.name !== name) fail(`the closing tag </${name}> does not match its opening tag`);
        continue;
      }
      const selfClosing = tag.endsWith('/');
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const nameEnd = body.search(/\s|$/);
      const name = localName(body.slice(0, nameEnd));
      if (!name) fail('a tag has no name');
      if (++elementCount > MAX_ELEMENTS) fail(`it has more than ${MAX_ELEMENTS} elements`);
      const element: XmlElement = { name, attributes: readAttributes(body.slice(nameEnd)), children: [], text: '' };
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else if (root) fail('it has more than one document element');
      else root = element;
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) fail(`elements are nested more than ${MAX_DEPTH} deep`);
        stack.push(element);
      }
    }
  }
  if (stack.length) fail(`the element <${stack.at(-1)!.name}> is not closed`);
  if (!root) fail('it has no document element');
  return root;
}

/** Every element below (not including) the given one whose local name matches, in document order. */
export function descendants(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    for (const child of node.children) {
      if (child.name === name) found.push(child);
      visit(child);
    }
  };
  visit(element);
  return found;
}

/** The direct children with the given local name. */
export const childrenNamed = (element: XmlElement, name: string) => element.children.filter((child) => child.name === name);
