/** Index just past the `}` closing the object that starts at `start`, skipping braces inside JSON strings. */
export function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * The object literal assigned to `name` in a page's inline scripts (`var name = {…};`, `window["name"] = {…}`).
 * Other mentions of the name (`if (name && name.x)`) are skipped; a regex would stop at the first `};` in a string.
 */
export function extractAssignedObject(html: string, name: string): unknown {
  for (let at = html.indexOf(name); at !== -1; at = html.indexOf(name, at + name.length)) {
    const assignment = /^["'\]]*\s*=\s*/.exec(html.slice(at + name.length, at + name.length + 16));
    const start = assignment ? at + name.length + assignment[0].length : -1;
    if (start === -1 || html[start] !== '{') continue;
    const end = matchingBrace(html, start);
    if (end === -1) return null;
    try {
      return JSON.parse(html.slice(start, end));
    } catch {
      continue;
    }
  }
  return null;
}
