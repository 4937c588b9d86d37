import { POSTS_SCHEDULED_MAX, type Automation, type AutomationStatus, type PostRepeat } from '@parley/contract';
import type { Db, Tx } from '../../db/client.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import { postUrl } from '../../providers/linkedin/index.js';
import * as q from './linkedin.automations.queries.js';
import { localMinute } from '../../lib/time.js';
import { localToUtc, nextRun } from './linkedin.posts.time.js';

export type Owner = { user: { id: string } };

/** Records a site admin's action in the audit log, in the change's transaction (the admin module's, from app.ts). */
export type AuditSink = (
  record: {
    actor: { id: string; email: string };
    action: 'automation.delete';
    target?: { userId: string } | undefined;
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
  },
  tx?: Tx,
) => Promise<void>;
export type SiteAdminActor = { user: { id: string; email: string } };

export const toAutomation = (r: q.AutomationRow & { keyword?: string | null }): Automation => ({
  automationId: r.id,
  kind: r.kind,
  status: r.status,
  dailyRun: r.dailyRun,
  text: r.text,
  keyword: r.keyword ?? null,
  runAt: r.runAt ? r.runAt.toISOString() : null,
  timezone: r.timezone,
  repeat: r.repeat,
  visibility: r.visibility,
  postUrn: r.postUrn,
  postUrl: r.postUrn ? postUrl(r.postUrn) : null,
  publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
});

/**
 * The automations list of spec §7 (`/api/mongo/automation/*`): a person's scheduled posts and daily runs. The
 * `userId` the old calls send is ignored: the caller is who counts, and another person's automation is a 404.
 */
export function createAutomationsService(deps: {
  db: Db;
  recordAudit: AuditSink;
  /** Tells the scheduler a post is due at a new time. */
  onScheduled?: (automationId: string, runAt: Date) => void;
  clock?: () => Date;
}) {
  const { db, recordAudit } = deps;
  const clock = deps.clock ?? (() => new Date());

  const owned = async (owner: Owner, id: string) => {
    const row = await q.findAutomation(db, owner.user.id, id);
    if (!row) throw new NotFoundError('automation');
    return row;
  };

  /**
   * When a resumed automation runs: its next wall-clock time from now (a one-off post whose time is past: now). A
   * repeating post that was published already never runs at once, even with its daily run off: that would publish
   * the text again straight after a run; it runs at the next time its wall-clock time comes round.
   */
  const resumeAt = (row: q.AutomationRow, now: Date) => {
    if (row.runAt && row.runAt.getTime() > now.getTime()) return row.runAt;
    if (row.kind !== 'post') return now;
    if (row.repeat !== 'none' && (row.dailyRun || row.runs > 0) && row.localTime && row.timezone) {
      // The same wall-clock time today, or the next day (week) it comes round.
      const today = localToUtc(`${localMinute(now, row.timezone).slice(0, 10)}T${row.localTime}`, row.timezone);
      if (today && today.getTime() > now.getTime()) return today;
      return nextRun(today ?? now, row.localTime, row.timezone, row.repeat as PostRepeat, now) ?? now;
    }
    return now;
  };

  return {
    async list(owner: Owner) {
      return { automations: (await q.listAutomations(db, owner.user.id)).map(toAutomation) };
    },

    /**
     * Pending resumes an automation that stopped (Error, or Completed with runs to come): it runs at its next time.
     * Completed stops it. Error is what the publisher says, not something to set.
     */
    async setStatus(owner: Owner, id: string, status: AutomationStatus) {
      const row = await owned(owner, id);
      if (status === row.status) return toAutomation(row);
      const now = clock();
      if (status === 'Error') throw new DomainError('VALIDATION_FAILED');
      if (status === 'Completed') {
        // Not while a publication is in doubt: its outcome (the post's id) is recorded first.
        const done = await q.setAutomation(db, owner.user.id, id, { status: 'Completed', runAt: null }, now, true);
        if (!done) throw new DomainError('AUTOMATION_NOT_EDITABLE');
        return toAutomation(done);
      }
      // A one-off post already published stays published: resuming would post it again.
      if (row.kind === 'post' && row.repeat === 'none' && row.runs > 0)
        throw new DomainError('AUTOMATION_NOT_EDITABLE');
      // Pending again: a publication in doubt is settled by the publisher first. A post counts against the scheduled
      // posts a person may have waiting, counted under the same per-person lock as scheduling one.
      const runAt = resumeAt(row, now);
      const resumed = await db.transaction(async (tx) => {
        if (row.kind === 'post') {
          await q.lockOwner(tx, owner.user.id);
          if ((await q.countPendingPosts(tx, owner.user.id)) >= POSTS_SCHEDULED_MAX) {
            throw new DomainError('TOO_MANY_ITEMS', { max: POSTS_SCHEDULED_MAX });
          }
        }
        // A run left in doubt (see failRun) is looked for on LinkedIn when the post runs again at once; a repeat that
        // runs at a later time posts that time's post, whatever became of the earlier one.
        const later = runAt.getTime() > now.getTime() ? { attemptStartedAt: null } : {};
        return q.setAutomation(
          tx,
          owner.user.id,
          id,
          { status: 'Pending', runAt, error: null, leaseUntil: null, ...later },
          now,
          true,
        );
      });
      if (!resumed) throw new DomainError('AUTOMATION_NOT_EDITABLE');
      if (resumed.kind === 'post') deps.onScheduled?.(resumed.id, runAt);
      return toAutomation(resumed);
    },

    /**
     * The daily run stops: no further post. A repeating post already published ends now (Completed); one never
     * published keeps its one scheduled run; one being published ends once its run is recorded. A daily engagement
     * run stops.
     */
    async disableDailyRun(owner: Owner, id: string) {
      await owned(owner, id);
      const row = await q.disableDailyRun(db, owner.user.id, id, clock());
      if (!row) throw new NotFoundError('automation');
      return toAutomation(row);
    },

    async delete(owner: Owner, id: string) {
      const deleted = await q.deleteAutomation(db, id, owner.user.id);
      if (!deleted.length) {
        await owned(owner, id);
        // It exists: its post is being published; once that is recorded it can go.
        throw new DomainError('AUTOMATION_NOT_EDITABLE');
      }
      return { deleted: deleted.length };
    },

    /** A site admin deletes anyone's automation; the audit log records it with the deletion. */
    async adminDelete(admin: SiteAdminActor, id: string) {
      return db.transaction(async (tx) => {
        const [row] = await q.deleteAutomation(tx, id);
        if (!row) throw new NotFoundError('automation');
        await recordAudit(
          {
            actor: { id: admin.user.id, email: admin.user.email },
            action: 'automation.delete',
            target: { userId: row.userId },
            before: {
              automationId: row.id,
              kind: row.kind,
              status: row.status,
              runAt: row.runAt?.toISOString() ?? null,
            },
            after: null,
          },
          tx,
        );
        return { deleted: 1 };
      });
    },
  };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;
