import {
  SHORTCUT_KEY_PATTERN,
  SHORTCUTS_MAX,
  SIGNATURE_HTML_MAX,
  SIGNATURES_MAX,
  TEMPLATES_MAX,
  type Shortcut,
  type ShortcutInput,
  type Signature,
  type Template,
  type TemplateInput,
} from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/unavailable.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import {
  shortcuts as shortcutsTable,
  signatures as signaturesTable,
  templates as templatesTable,
} from '../../db/schema/index.js';
import { cleanSignatureHtml } from './clean-html.js';
import * as q from './templates.queries.js';

/** Who is asking: every object is theirs alone (another person's id is answered 404). */
export type Owner = { user: { id: string } };

type ParsedTemplate = Required<{ [K in keyof TemplateInput]: Exclude<TemplateInput[K], undefined> }>;
type ParsedSignature = { name: string; html: string; defaultFor: string[] };
type ParsedShortcut = Required<ShortcutInput>;

const iso = (d: Date) => d.toISOString();

const toTemplate = (r: q.TemplateRow): Template => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  language: r.language,
  tone: r.tone,
  length: r.length,
  position: r.position,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const toSignature = (r: q.SignatureRow, defaultFor: string[]): Signature => ({
  id: r.id,
  name: r.name,
  html: r.html,
  defaultFor,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const toShortcut = (r: q.ShortcutRow): Shortcut => ({
  id: r.id,
  key: r.key,
  text: r.text,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

/** The signature's cleaned HTML, within its bound. */
function cleaned(html: string) {
  const out = cleanSignatureHtml(html);
  if (out.length > SIGNATURE_HTML_MAX) throw new DomainError('VALIDATION_FAILED');
  return out;
}

/**
 * Templates, signatures and shortcuts: each person's own. Changes take the person's advisory lock, so limits,
 * positions and reordering are decided one change at a time.
 */
export function createTemplatesService({ db }: { db: Db }) {
  const asOwner = <T>(owner: Owner, fn: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      await q.lockOwner(tx, owner.user.id);
      return fn(tx);
    });

  const within = async (
    tx: Tx,
    table: typeof templatesTable | typeof signaturesTable | typeof shortcutsTable,
    userId: string,
    adding: number,
    max: number,
  ) => {
    if ((await q.countOf(tx, table, userId)) + adding > max) throw new DomainError('TOO_MANY_ITEMS', { max });
  };

  /** A shortcut key taken by two requests at once: the unique index lets one in. */
  const keyTaken = async <T>(fn: () => Promise<T>) => {
    try {
      return await fn();
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('SHORTCUT_KEY_TAKEN');
      throw error;
    }
  };

  const signaturesOf = async (owner: Owner, tx?: Tx) =>
    (await q.listSignatures(tx ?? db, owner.user.id)).map(({ row, defaultFor }) => toSignature(row, defaultFor));

  return {
    async templates(owner: Owner) {
      return { templates: (await q.listTemplates(db, owner.user.id)).map(toTemplate) };
    },

    async template(owner: Owner, id: string) {
      const row = await q.findTemplate(db, owner.user.id, id);
      if (!row) throw new NotFoundError('template');
      return toTemplate(row);
    },

    async addTemplate(owner: Owner, input: ParsedTemplate) {
      return asOwner(owner, async (tx) => {
        await within(tx, templatesTable, owner.user.id, 1, TEMPLATES_MAX);
        const [row] = await q.insertTemplates(tx, owner.user.id, [input]);
        return toTemplate(row!);
      });
    },

    async updateTemplate(owner: Owner, id: string, input: ParsedTemplate) {
      const row = await asOwner(owner, (tx) => q.updateTemplate(tx, owner.user.id, id, input));
      if (!row) throw new NotFoundError('template');
      return toTemplate(row);
    },

    async deleteTemplate(owner: Owner, id: string) {
      const deleted = await asOwner(owner, (tx) => q.deleteTemplate(tx, owner.user.id, id));
      if (!deleted) throw new NotFoundError('template');
      return { deleted };
    },

    /**
     * Puts every one of the person's templates in the order of `ids`. The set must be exactly theirs as it is now:
     * a template added or deleted meanwhile (another tab, the extension) makes it REORDER_MISMATCH, nothing moved.
     */
    async reorder(owner: Owner, ids: string[]) {
      return asOwner(owner, async (tx) => {
        const current = await q.listTemplates(tx, owner.user.id);
        const mine = new Set(current.map((t) => t.id));
        if (ids.length !== mine.size || ids.some((id) => !mine.has(id))) throw new DomainError('REORDER_MISMATCH');
        await q.setPositions(tx, owner.user.id, ids);
        return { templates: (await q.listTemplates(tx, owner.user.id)).map(toTemplate) };
      });
    },

    signatures: async (owner: Owner) => ({ signatures: await signaturesOf(owner) }),

    async addSignature(owner: Owner, input: ParsedSignature) {
      const html = cleaned(input.html);
      return asOwner(owner, async (tx) => {
        await within(tx, signaturesTable, owner.user.id, 1, SIGNATURES_MAX);
        const row = await q.insertSignature(tx, owner.user.id, { name: input.name, html });
        await q.setDefaults(tx, owner.user.id, row.id, [...new Set(input.defaultFor)]);
        return (await signaturesOf(owner, tx)).find((s) => s.id === row.id)!;
      });
    },

    async updateSignature(owner: Owner, id: string, input: ParsedSignature) {
      const html = cleaned(input.html);
      return asOwner(owner, async (tx) => {
        const row = await q.updateSignature(tx, owner.user.id, id, { name: input.name, html });
        if (!row) throw new NotFoundError('signature');
        await q.setDefaults(tx, owner.user.id, row.id, [...new Set(input.defaultFor)]);
        return (await signaturesOf(owner, tx)).find((s) => s.id === row.id)!;
      });
    },

    async deleteSignature(owner: Owner, id: string) {
      const deleted = await asOwner(owner, (tx) => q.deleteSignature(tx, owner.user.id, id));
      if (!deleted) throw new NotFoundError('signature');
      return { deleted };
    },

    async shortcuts(owner: Owner) {
      return { shortcuts: (await q.listShortcuts(db, owner.user.id)).map(toShortcut) };
    },

    async shortcutExists(owner: Owner, key: string) {
      const normalized = key.trim().toLowerCase();
      const valid = SHORTCUT_KEY_PATTERN.test(normalized);
      return { valid, exists: valid && Boolean(await q.findShortcutByKey(db, owner.user.id, normalized)) };
    },

    async addShortcut(owner: Owner, input: ParsedShortcut) {
      return keyTaken(() =>
        asOwner(owner, async (tx) => {
          await within(tx, shortcutsTable, owner.user.id, 1, SHORTCUTS_MAX);
          if (await q.findShortcutByKey(tx, owner.user.id, input.key)) throw new DomainError('SHORTCUT_KEY_TAKEN');
          const [row] = await q.insertShortcuts(tx, owner.user.id, [input]);
          return toShortcut(row!);
        }),
      );
    },

    async updateShortcut(owner: Owner, id: string, input: ParsedShortcut) {
      return keyTaken(() =>
        asOwner(owner, async (tx) => {
          const taken = await q.findShortcutByKey(tx, owner.user.id, input.key);
          if (taken && taken.id !== id) throw new DomainError('SHORTCUT_KEY_TAKEN');
          const row = await q.updateShortcut(tx, owner.user.id, id, input);
          if (!row) throw new NotFoundError('shortcut');
          return toShortcut(row);
        }),
      );
    },

    async deleteShortcut(owner: Owner, id: string) {
      const deleted = await asOwner(owner, (tx) => q.deleteShortcut(tx, owner.user.id, id));
      if (!deleted) throw new NotFoundError('shortcut');
      return { deleted };
    },

    /**
     * An export's JSON brought back: templates after the person's own, signatures, and shortcuts whose keys are
     * free (the others are reported, not overwritten). All or nothing; the limits hold.
     */
    async import(
      owner: Owner,
      input: { templates: ParsedTemplate[]; signatures: ParsedSignature[]; shortcuts: ParsedShortcut[] },
    ) {
      const signatures = input.signatures.map((s) => ({ ...s, html: cleaned(s.html) }));
      return asOwner(owner, async (tx) => {
        const userId = owner.user.id;
        const existing = new Set((await q.listShortcuts(tx, userId)).map((s) => s.key));
        const skippedKeys: string[] = [];
        const fresh: ParsedShortcut[] = [];
        for (const s of input.shortcuts) {
          if (existing.has(s.key)) skippedKeys.push(s.key);
          else {
            existing.add(s.key);
            fresh.push(s);
          }
        }
        // The same export imported twice adds nothing the second time: what the person has already (same kind,
        // title and text; same name and HTML) is left out, and so keeps its place and its defaults.
        const sameTemplate = (t: Pick<ParsedTemplate, 'kind' | 'title' | 'body'>) =>
          `${t.kind}\u0000${t.title}\u0000${t.body}`;
        const haveTemplates = new Set((await q.listTemplates(tx, userId)).map(sameTemplate));
        const newTemplates = input.templates.filter((t) => {
          const key = sameTemplate(t);
          if (haveTemplates.has(key)) return false;
          haveTemplates.add(key);
          return true;
        });
        const sameSignature = (s: { name: string; html: string }) => `${s.name}\u0000${s.html}`;
        const haveSignatures = new Set((await q.listSignatures(tx, userId)).map(({ row }) => sameSignature(row)));
        const newSignatures = signatures.filter((s) => {
          const key = sameSignature(s);
          if (haveSignatures.has(key)) return false;
          haveSignatures.add(key);
          return true;
        });
        await within(tx, templatesTable, userId, newTemplates.length, TEMPLATES_MAX);
        await within(tx, signaturesTable, userId, newSignatures.length, SIGNATURES_MAX);
        await within(tx, shortcutsTable, userId, fresh.length, SHORTCUTS_MAX);
        await q.insertTemplates(tx, userId, newTemplates);
        for (const s of newSignatures) {
          const row = await q.insertSignature(tx, userId, { name: s.name, html: s.html });
          await q.setDefaults(tx, userId, row.id, [...new Set(s.defaultFor)]);
        }
        await q.insertShortcuts(tx, userId, fresh);
        return {
          templates: newTemplates.length,
          signatures: newSignatures.length,
          shortcuts: fresh.length,
          skippedKeys,
        };
      });
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
