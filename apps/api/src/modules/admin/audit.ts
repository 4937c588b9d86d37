import type { Db, Tx } from '../../db/client.js';
import * as q from './admin.queries.js';

/** One privileged action: who did it, what, to whom (a person, an organization), the values before and after. */
export type AuditRecord = {
  actor: { id: string; email: string };
  action: string;
  target?: { userId: string; email?: string | undefined } | undefined;
  organizationId?: string | undefined;
  before?: Record<string, unknown> | null | undefined;
  after?: Record<string, unknown> | null | undefined;
};

/**
 * Records an action in the audit log. Give it the transaction that makes the change, so the change and its record
 * commit together or not at all; without one it is written on its own (after a change made elsewhere, such as at
 * the payment provider). Other modules receive it from app.ts (organizations records its admins' actions).
 */
export type RecordAudit = (record: AuditRecord, tx?: Tx) => Promise<void>;

export function createRecordAudit(db: Db): RecordAudit {
  return (record, tx) =>
    q.insertAudit(tx ?? db, {
      actorId: record.actor.id,
      actorEmail: record.actor.email,
      action: record.action,
      targetUserId: record.target?.userId ?? null,
      targetEmail: record.target?.email ?? null,
      organizationId: record.organizationId ?? null,
      before: record.before ?? null,
      after: record.after ?? null,
    });
}
