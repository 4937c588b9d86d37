import { importBodySchema, type ImportBody, type Shortcut, type Signature, type Template } from '@parley/contract';
import { saveBlob } from '../../../lib/save-blob';

/** An export: what the import call takes, nothing more (the import schema refuses unknown fields). */
export type ExportFile = {
  templates: ImportBody['templates'];
  signatures: ImportBody['signatures'];
  shortcuts: ImportBody['shortcuts'];
};

export function buildExport(data: {
  templates: Template[];
  signatures: Signature[];
  shortcuts: Shortcut[];
}): ExportFile {
  return {
    templates: data.templates.map(({ kind, title, body, language, tone, length }) => ({
      kind,
      title,
      body,
      language,
      tone,
      length,
    })),
    signatures: data.signatures.map(({ name, html, defaultFor }) => ({ name, html, defaultFor })),
    shortcuts: data.shortcuts.map(({ key, text }) => ({ key, text })),
  };
}

export const exportFileName = (now = new Date()) => `parley-templates-${now.toISOString().slice(0, 10)}.json`;

/** Saves the export as a JSON file through the browser's download. */
export function downloadJson(data: unknown, fileName: string): void {
  saveBlob(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }), fileName);
}

/** Import files larger than this are refused before reading (500 templates of 10,000 characters fit). */
export const IMPORT_FILE_MAX_BYTES = 12 * 1024 * 1024;

export type ImportCheck =
  | { ok: true; body: ImportBody; counts: { templates: number; signatures: number; shortcuts: number } }
  | { ok: false; reason: 'notJson' | 'notExport'; where?: string };

/** Reads an export's text with the contract's import schema, as the server will. */
export function checkImport(text: string): ImportCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'notJson' };
  }
  const result = importBodySchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? issue.path.map(String).join('.') : undefined;
    return { ok: false, reason: 'notExport', ...(where ? { where } : {}) };
  }
  const body = result.data;
  return {
    ok: true,
    body,
    counts: { templates: body.templates.length, signatures: body.signatures.length, shortcuts: body.shortcuts.length },
  };
}
