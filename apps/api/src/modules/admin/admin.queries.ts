import { and, count, desc, eq, gte, ilike, lt, lte, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { auditLog, errorLogs } from '../../db/schema/index.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;
export type ErrorLogRow = typeof errorLogs.$inferSelect;

/** `%text%` for LIKE, with LIKE's own wildcards in `text` taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function insertAudit(db: Tx, row: NewAuditRow) {
  await db.insert(auditLog).values(row);
}

export async function listAudit(
  db: Db,
  input: { action?: string | undefined; targetUserId?: string | undefined; page: number; pageSize: number },
) {
  const where = and(
    input.action ? eq(auditLog.action, input.action) : undefined,
    input.targetUserId ? eq(auditLog.targetUserId, input.targetUserId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export type ErrorLogFilters = {
  status?: number | undefined;
  path?: string | undefined;
  search?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

const errorLogWhere = (f: ErrorLogFilters): SQL | undefined =>
  and(
    f.status !== undefined ? eq(errorLogs.status, f.status) : undefined,
    f.path ? ilike(errorLogs.url, containing(f.path)) : undefined,
    f.search ? ilike(errorLogs.message, containing(f.search)) : undefined,
    f.from ? gte(errorLogs.createdAt, f.from) : undefined,
    f.to ? lte(errorLogs.createdAt, f.to) : undefined,
  );

export async function listErrorLogs(db: Db, filters: ErrorLogFilters & { page: number; pageSize: number }) {
  const where = errorLogWhere(filters);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(errorLogs)
      .where(where)
      .orderBy(desc(errorLogs.createdAt), desc(errorLogs.id))
      .limit(filters.pageSize)
      .offset((filters.page - 1) * filters.pageSize),
    db.select({ n: count() }).from(errorLogs).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Deletes one entry, or every entry older than `before`; returns how many. */
export async function deleteErrorLogs(db: Tx, which: { id: string } | { before: Date }) {
  const rows = await db
    .delete(errorLogs)
    .where('id' in which ? eq(errorLogs.id, which.id) : lt(errorLogs.createdAt, which.before))
    .returning({ id: errorLogs.id });
  return rows.length;
}
