/**
 * A strict parser for the small XML subset of gwa notifications
 * (docs/provider-facts.md §1.4): elements, attributes, text and the five
 * predefined entities plus numeric character references. Anything that could
 * expand or reach outside the document is refused before parsing: a DOCTYPE,
 * an ENTITY declaration, CDATA, comments and processing instructions (the XML
 * declaration alone is allowed). Size, depth and element count are bounded, so
 * a hostile payload costs at most one linear scan (docs/decisions.md, "gwa webhook").
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element, entities decoded. */
  text: string;
}

export interface XmlLimits {
  maxChars: number;
  maxDepth: number;
  maxElements: number;
}

export const NOTIFICATION_XML_LIMITS: XmlLimits = { maxChars: 48 * 1024, maxDepth: 16, maxElements: 2_000 };

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Characters XML 1.0 does not allow (its `Char` production): C0 controls other
 * than tab, newline and carriage return, unpaired surrogates, U+FFFE and U+FFFF.
 * NUL among them would reach PostgreSQL, which cannot store it in text.
 */
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function refuseNonXmlChar(text: string): void {
  const bad = NOT_XML_CHAR.exec(text)?.[0];
  if (bad !== undefined) {
    const code = bad.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new XmlError(`The document holds a character XML does not allow (U+${code})`);
  }
}

function decodeEntities(raw: string): string {
  return raw.replace(/&([^;&\s]{0,10});?/g, (match, body: string) => {
    if (!match.endsWith(';')) throw new XmlError('A bare "&" is not allowed');
    if (body in PREDEFINED) return PREDEFINED[body]!;
    const numeric = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(body);
    if (numeric) {
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new XmlError('Invalid character reference');
      const char = String.fromCodePoint(code);
      refuseNonXmlChar(char);
      return char;
    }
    // Only the predefined entities exist: no document can declare others (DTDs are refused).
    throw new XmlError(`Unknown entity &${body};`);
  });
}

function parseAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  const pattern = /\s*([A-Za-z_][A-Za-z0-9_.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
  let index = 0;
  while (index < source.length) {
    if (/^\s*$/.test(source.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(source);
    if (!match) throw new XmlError('Malformed attribute');
    const name = match[1]!;
    if (name in attributes) throw new XmlError(`Repeated attribute ${name}`);
    attributes[name] = decodeEntities(match[2] ?? match[3] ?? '');
    index = pattern.lastIndex;
  }
  return attributes;
}

/** Parse one document with a single root element; throws `XmlError` on anything outside the subset or over a limit. */
export function parseXml(input: string, limits: XmlLimits = NOTIFICATION_XML_LIMITS): XmlElement {
  if (input.length > limits.maxChars) throw new XmlError(`The document is larger than ${limits.maxChars} characters`);
  refuseNonXmlChar(input);
  let text = input.replace(/^\uFEFF/, '');
  const declaration = /^\s*<\?xml\s[^?<>]*\?>/.exec(text);
  if (declaration) text = text.slice(declaration[0].length);
  if (/<!/.test(text)) throw new XmlError('Document type declarations, entities, CDATA and comments are not accepted');
  if (/<\?/.test(text)) throw new XmlError('Processing instructions are not accepted');

  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  const tag = /<(\/?)([^\s/>]+)([^>]*?)(\/?)>/g;
  let last = 0;
  const addText = (raw: string) => {
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (raw.trim() !== '') throw new XmlError('Text outside the root element');
      return;
    }
    parent.text += decodeEntities(raw);
  };
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    const between = text.slice(last, match.index);
    if (between.includes('<')) throw new XmlError('Malformed tag');
    addText(between);
    last = tag.lastIndex;
    const [, closing, name, rest, selfClosing] = match as unknown as [string, string, string, string, string];
    if (!NAME.test(name)) throw new XmlError('Malformed element name');
    if (closing) {
      if (rest.trim() !== '' || selfClosing) throw new XmlError('Malformed closing tag');
      const open = stack.pop();
      if (!open || open.name !== name) throw new XmlError(`Unexpected closing tag ${name}`);
      continue;
    }
    if (root && stack.length === 0) throw new XmlError('More than one root element');
    if (++elements > limits.maxElements) throw new XmlError(`More than ${limits.maxElements} elements`);
    const element: XmlElement = { name, attributes: parseAttributes(rest), children: [], text: '' };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    if (!selfClosing) {
      stack.push(element);
      if (stack.length > limits.maxDepth) throw new XmlError(`Elements nest deeper than ${limits.maxDepth}`);
    }
  }
  const tail = text.slice(last);
  if (tail.includes('<') || tail.includes('>')) throw new XmlError('Malformed tag');
  addText(tail);
  if (stack.length > 0) throw new XmlError(`Unclosed element ${stack[stack.length - 1]!.name}`);
  if (!root) throw new XmlError('No root element');
  return root;
}

/** The first child element with this name. */
export const childOf = (element: XmlElement, name: string): XmlElement | undefined => element.children.find((c) => c.name === name);
