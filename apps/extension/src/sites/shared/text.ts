/** Reading visible page text: whitespace-normalized, capped. No layout is needed (works in jsdom too). */

/** Default cap of any text sent as context (characters). */
export const CONTEXT_CAP = 12_000;

const SKIP_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'CANVAS',
  'VIDEO',
  'AUDIO',
  'IFRAME',
  'OBJECT',
  'INPUT',
  'SELECT',
  'BUTTON',
  'TEXTAREA',
]);

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
]);

/** Screen-reader-only text is clipped off screen, not hidden by display: treat it as invisible. */
const SCREEN_READER_ONLY = /(^|\s)(visually-hidden|sr-only|screen-reader-text|a11y-text)(\s|$)/;

export function isHidden(el: Element, style?: CSSStyleDeclaration): boolean {
  if (SKIP_TAGS.has(el.tagName.toUpperCase())) return true;
  if (el.hasAttribute('hidden')) return true;
  if (SCREEN_READER_ONLY.test(el.getAttribute('class') ?? '')) return true;
  const computed = style ?? el.ownerDocument.defaultView?.getComputedStyle(el);
  return computed !== undefined && (computed.display === 'none' || computed.visibility === 'hidden');
}

export interface TextOptions {
  /** Subtrees matching this selector are left out (e.g. the reply editor itself, quoted history). */
  skip?: string;
  /** Characters to stop after; the walk ends early on big pages. */
  max?: number;
}

/**
 * The visible text of a node, one line per block, whitespace collapsed within lines. Newlines in the source count
 * only where CSS keeps them (white-space: pre*), as on X, whose tweet text is pre-wrap.
 */
export function visibleText(node: Node | null | undefined, options: TextOptions = {}): string {
  if (!node) return '';
  const max = options.max ?? CONTEXT_CAP * 2;
  const view = (node.nodeType === 9 ? (node as Document) : node.ownerDocument)?.defaultView;
  const out: string[] = [];
  let length = 0;
  const walk = (current: Node, pre: boolean): void => {
    if (length > max) return;
    if (current.nodeType === 3) {
      const data = pre ? (current as Text).data : (current as Text).data.replace(/\s+/g, ' ');
      out.push(data);
      length += data.length;
      return;
    }
    if (current.nodeType !== 1 && current.nodeType !== 9 && current.nodeType !== 11) return;
    const el = current.nodeType === 1 ? (current as Element) : null;
    let block = false;
    if (el) {
      const style = view?.getComputedStyle(el);
      if (isHidden(el, style) || (options.skip && el.matches(options.skip))) return;
      if (el.tagName === 'BR') {
        out.push('\n');
        return;
      }
      pre = pre || el.tagName === 'PRE' || (style?.whiteSpace ?? '').startsWith('pre');
      block = BLOCK_TAGS.has(el.tagName.toUpperCase());
    }
    if (block) out.push('\n');
    for (let child = current.firstChild; child; child = child.nextSibling) walk(child, pre);
    if (block) out.push('\n');
  };
  walk(node, false);
  return normalizeText(out.join(''));
}

/** Collapse runs of spaces, trim every line, keep at most one blank line between paragraphs. */
export function normalizeText(text: string): string {
  return text
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cut to `max` characters at a word boundary when one is near, marking the cut with an ellipsis. */
export function capText(text: string, max: number = CONTEXT_CAP): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const space = slice.search(/\s\S*$/);
  return `${space > max * 0.9 ? slice.slice(0, space) : slice}…`;
}

/** The visible text of the first element matching `selector` under `root`. */
export function textAt(root: ParentNode | null | undefined, selector: string, options?: TextOptions): string {
  return visibleText(root?.querySelector(selector), options);
}

/** Join labelled sections ("Subject: …") leaving out empty ones. */
export function sections(parts: Array<[label: string, value: string | undefined]>): string {
  return parts
    .filter(([, value]) => value)
    .map(([label, value]) => (label ? `${label}: ${value}` : (value as string)))
    .join('\n\n');
}

/** Keep the most recent parts (the end of a thread matters most) within `max` characters. */
export function capRecent(parts: string[], max: number = CONTEXT_CAP, separator = '\n\n---\n\n'): string {
  const kept: string[] = [];
  let size = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as string;
    if (size + part.length + separator.length > max) {
      if (kept.length === 0) return capText(part, max);
      kept.unshift('(earlier messages left out)');
      break;
    }
    kept.unshift(part);
    size += part.length + separator.length;
  }
  return kept.join(separator);
}
