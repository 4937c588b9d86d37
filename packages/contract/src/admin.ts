import { z } from 'zod';
import { currentPlanSchema } from './payment.js';
import { PLAN_IDS } from './plans.js';
import { instant, line } from './text.js';
import { profileSchema } from './user.js';

/** The site admin portal (spec §2 /admin-portal, §5, §6, §7 "Admin"). Every call needs the site admin role. */

/** The largest credit balance an admin can set (a wallet's balances are 32-bit integers). */
export const ADMIN_CREDIT_MAX = 1_000_000_000;
export const ADMIN_PAGE_SIZE_MAX = 100;
export const ADMIN_SEARCH_MAX = 200;

const page = z.number().int().min(1).max(1_000_000).default(1);
const pageSize = z.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(20);
const isoDate = instant();

/** Query `?id=`: the account an action is about. */
export const adminIdQuerySchema = z.object({ id: z.uuid() }).strict();

export const ADMIN_USER_SORTS = ['createdAt', 'email', 'name', 'loginCount', 'lastLoginAt'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;

export const adminUsersBodySchema = z
  .object({
    /** Part of an e-mail address or a name; empty for everyone. */
    search: line().trim().max(ADMIN_SEARCH_MAX).default(''),
    sort: z.enum(ADMIN_USER_SORTS).default('createdAt'),
    order: z.enum(SORT_ORDERS).default('desc'),
    page,
    pageSize,
  })
  .strict();
export type AdminUsersBody = z.input<typeof adminUsersBodySchema>;

/** A person as the portal shows them: their profile, plan, credits and use over the last 30 days. */
export const adminUserSchema = profileSchema.extend({
  plan: z.enum(PLAN_IDS),
  /** When they last signed in (a session was started); null when never. */
  lastLoginAt: z.string().nullable(),
  /** Sessions still live (web and extension). */
  activeSessions: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminUsers = z.infer<typeof adminUsersSchema>;

/** One credit an admin sets: a whole number, at least 0. */
export const adminCreditSchema = z.number().int().min(0).max(ADMIN_CREDIT_MAX);
/** Spec §5: each of the four credits is required when credits are edited. */
export const adminCreditsSchema = z
  .object({
    dailyCredit: adminCreditSchema,
    basicCredit: adminCreditSchema,
    advanceCredit: adminCreditSchema,
    extraAdvanceCredit: adminCreditSchema,
  })
  .strict();
export type AdminCredits = z.infer<typeof adminCreditsSchema>;

/** What an admin may change on an account; nothing else (role, e-mail, wallet…) is accepted. */
export const adminEditUserBodySchema = z
  .object({
    id: z.uuid(),
    credits: adminCreditsSchema.optional(),
    /** Lifetime free credits (spec §3, §6). */
    lifetimeUser: z.boolean().optional(),
    /** Several sessions at once; when false, a new sign-in ends the others (409). */
    multipleLogin: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.credits !== undefined || b.lifetimeUser !== undefined || b.multipleLogin !== undefined, {
    message: 'nothing to change',
  });
export type AdminEditUserBody = z.input<typeof adminEditUserBodySchema>;

export const adminForceLogoutSchema = z.object({ ended: z.number().int() });

/** One person's LinkedIn automations, for a site admin (who may delete them). */
export const adminAutomationsBodySchema = z.object({ id: z.uuid() }).strict();

export const adminUserPlanBodySchema = z
  .object({
    id: z.uuid(),
    /** The organization whose plan pays for this person there; their own plan when absent. */
    org: z.uuid().optional(),
  })
  .strict();

/** The plan that pays for a person: their own (and its subscription), or their organization's. */
export const adminUserPlanSchema = z.object({
  userId: z.string(),
  organizationId: z.string().nullable(),
  plan: currentPlanSchema.pick({ plan: true, basePlan: true, subscription: true }),
});
export type AdminUserPlan = z.infer<typeof adminUserPlanSchema>;

export const adminOrganizationsBodySchema = z
  .object({ search: line().trim().max(ADMIN_SEARCH_MAX).default(''), page, pageSize })
  .strict();

export const adminOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  members: z.number().int(),
  seats: z.number().int(),
  plan: z.enum(PLAN_IDS).nullable(),
  createdAt: z.string(),
});
export type AdminOrganization = z.infer<typeof adminOrganizationSchema>;

export const adminOrganizationsSchema = z.object({
  /** false while this server has no organizations to list. */
  available: z.boolean(),
  organizations: z.array(adminOrganizationSchema),
  total: z.number().int(),
});
export type AdminOrganizations = z.infer<typeof adminOrganizationsSchema>;

export const adminErrorLogsBodySchema = z
  .object({
    status: z.number().int().min(100).max(599).optional(),
    /** Part of the request's path. */
    path: line().trim().max(ADMIN_SEARCH_MAX).optional(),
    /** Part of the error's message. */
    search: line().trim().max(ADMIN_SEARCH_MAX).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    page,
    pageSize,
  })
  .strict();
export type AdminErrorLogsBody = z.input<typeof adminErrorLogsBodySchema>;

export const adminErrorLogSchema = z.object({
  id: z.string(),
  at: z.string(),
  requestId: z.string().nullable(),
  method: z.string().nullable(),
  url: z.string().nullable(),
  status: z.number().int().nullable(),
  userId: z.string().nullable(),
  message: z.string(),
  stack: z.string().nullable(),
});
export type AdminErrorLog = z.infer<typeof adminErrorLogSchema>;

export const adminErrorLogsSchema = z.object({ logs: z.array(adminErrorLogSchema), total: z.number().int() });
export type AdminErrorLogs = z.infer<typeof adminErrorLogsSchema>;

/** Query: one entry (`id`) or every entry older than `before`. */
export const adminDeleteErrorLogQuerySchema = z
  .object({ id: z.uuid().optional(), before: isoDate.optional() })
  .strict()
  .refine((q) => (q.id === undefined) !== (q.before === undefined), { message: 'id or before' });

export const adminDeletedSchema = z.object({ deleted: z.number().int() });

/** What the audit log records of the portal's actions (organizations add their own). */
export const ADMIN_ACTIONS = [
  'user.credits',
  'user.lifetime',
  'user.multipleLogin',
  'user.forceLogout',
  'user.delete',
  'user.removePlan',
  'errorLog.delete',
  'automation.delete',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const auditActionSchema = line()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z]+(\.[A-Za-z]+)*$/);

export const adminAuditBodySchema = z
  .object({ action: auditActionSchema.optional(), targetUserId: z.uuid().optional(), page, pageSize })
  .strict();

const jsonObject = z.record(z.string(), z.unknown()).nullable();

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Who acted (null once their account is gone; their address stays). */
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  targetUserId: z.string().nullable(),
  targetEmail: z.string().nullable(),
  organizationId: z.string().nullable(),
  before: jsonObject,
  after: jsonObject,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const adminAuditSchema = z.object({ entries: z.array(auditEntrySchema), total: z.number().int() });
export type AdminAudit = z.infer<typeof adminAuditSchema>;
