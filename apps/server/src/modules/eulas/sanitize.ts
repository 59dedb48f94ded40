import sanitizeHtml from 'sanitize-html';

// The allow-list a terms document is stored through (issue 14 §2): structure, text formatting, tables, links and
// inline images only. No script, style, iframe, object, embed, form, svg or math element survives, no attribute outside
// the list (so no on* handler, no style, no class), and URLs only with the schemes below (no javascript:, vbscript:,
// data: outside images). sanitize-html parses with htmlparser2 (pure JS, linear): a 1 MB document takes about 100 ms,
// which the upload limit keeps on the API's thread (one system administrator's rare action).
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'span', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'sub', 'sup', 'small', 'big',
    'blockquote', 'q', 'cite', 'pre', 'code', 'kbd', 'samp', 'abbr', 'address', 'time', 'figure', 'figcaption',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col', 'a', 'img',
  ],
  allowedAttributes: {
    '*': ['title', 'lang', 'dir'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope', 'align'],
    td: ['colspan', 'rowspan', 'align'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start', 'type', 'reversed'],
    li: ['value'],
    time: ['datetime'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  // An inline logo may be a data: image; remote images would let a document track who reads it (and the CSP blocks them).
  allowedSchemesByTag: { img: ['data'], a: ['http', 'https', 'mailto', 'tel'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  // These elements go with everything inside them (the text of a script or a style is not terms text).
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'select', 'button', 'noembed', 'noframes', 'xmp', 'head'],
  disallowedTagsMode: 'discard',
  // Links leave the document in a new tab, without telling the linked site where they came from.
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
    // Only an embedded raster image: a relative or remote src would fetch from a server when the document is shown.
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      return { tagName, attribs: src && /^data:image\/(png|jpe?g|gif|webp);base64,/i.test(src) ? { ...rest, src } : rest };
    },
  },
};

export function sanitizeTermsHtml(html: string): string {
  return sanitizeHtml(html, options).trim();
}

export type SanitizedTerms = { html: string } | { refusal: 'tooDeep' | 'empty' };

/** What the upload stores, made in a file worker (platform/workers): the sanitized html, or why there is none. */
export function sanitizeTermsDocument(html: string): SanitizedTerms {
  if (nestingDepth(html) > MAX_NESTING) return { refusal: 'tooDeep' };
  const sanitized = sanitizeTermsHtml(html);
  return hasVisibleContent(sanitized) ? { html: sanitized } : { refusal: 'empty' };
}

// Whether the sanitized document has text a reader would see (an image-only page counts).
export function hasVisibleContent(sanitized: string): boolean {
  return /<img\b/i.test(sanitized) || sanitizeHtml(sanitized, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '').length > 0;
}

// Elements that never hold others, so never deepen the nesting.
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
// Elements the next sibling closes (an unclosed <p> or <li> does not nest): left out of the count.
const IMPLIED_END = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'rb', 'rp', 'rt', 'rtc', 'caption', 'colgroup']);
export const MAX_NESTING = 500;

/**
 * How deep the document's elements nest, from a linear scan of its tags (comments and unclosed-tag repair are not
 * modelled: it only has to tell a real document, a few dozen levels deep, from a crafted one). The parser's time grows
 * faster than linearly with depth (1 MB of unclosed <div> takes over 30 s), so a deeper document is refused before it
 * is parsed.
 */
export function nestingDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = match;
    const tag = name!.toLowerCase();
    if (VOID_ELEMENTS.has(tag) || IMPLIED_END.has(tag)) continue;
    if (closing) depth = Math.max(0, depth - 1);
    else if (!selfClosing) max = Math.max(max, ++depth);
  }
  return max;
}
