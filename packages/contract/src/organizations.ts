import { z } from 'zod';
import { emailSchema } from './auth.js';
import { PLAN_IDS } from './plans.js';
import { line } from './text.js';

/**
 * Organizations (spec §2 /organization, /join-organization; §3 Organization, Team member; §6; §7 "Organization",
 * /api/auth/join). A Team subscriber (or a site admin) creates one; its admins invite people by e-mail, set roles and
 * each member's monthly credit limit; members spend from the organization's wallet. A person belongs to at most one.
 */

export const ORG_NAME_MAX = 80;
/** Addresses one invitation call may name. */
export const ORG_INVITE_MAX = 20;
/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;
/** The largest monthly credit limit an admin can set on a member. */
export const MEMBER_LIMIT_MAX = 1_000_000;
/** An invitation key's length bounds (the mailed key is 43 characters of base64url). */
export const INVITATION_KEY_MIN = 20;
export const INVITATION_KEY_MAX = 200;

export const ORG_ROLES = ['admin', 'user'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

export const orgNameSchema = line().trim().min(1).max(ORG_NAME_MAX);

export const orgCreateBodySchema = z.object({ name: orgNameSchema }).strict();
export type OrgCreateBody = z.input<typeof orgCreateBodySchema>;

/** The team calls take an empty body (the organization is the caller's own). */
export const orgEmptyBodySchema = z.object({}).strict();

/** Query `?id=`: the member (a person's id) or invitation an action is about; for /leave, the organization's id. */
export const orgIdQuerySchema = z.object({ id: z.uuid() }).strict();

export const orgInviteBodySchema = z.object({ emails: z.array(emailSchema).min(1).max(ORG_INVITE_MAX) }).strict();
export type OrgInviteBody = z.input<typeof orgInviteBodySchema>;

export const orgMemberLimitBodySchema = z
  .object({
    /** The member's id. */
    id: z.uuid(),
    /** Credits the member may spend from the organization's wallet per calendar month (UTC); null: no limit. */
    limit: z.number().int().min(0).max(MEMBER_LIMIT_MAX).nullable(),
  })
  .strict();
export type OrgMemberLimitBody = z.input<typeof orgMemberLimitBodySchema>;

export const joinBodySchema = z
  .object({ key: z.string().trim().min(INVITATION_KEY_MIN).max(INVITATION_KEY_MAX) })
  .strict();

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Seats paid for: no more members than this. */
  seats: z.number().int(),
  members: z.number().int(),
  /** Invitations waiting for an answer (they hold a seat until they expire). */
  pendingInvitations: z.number().int(),
  plan: z.enum(PLAN_IDS),
  /** Who pays for the organization (their plan is its plan); they cannot leave or be removed. */
  ownerId: z.string().nullable(),
  createdAt: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const teamMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ORG_ROLES),
  joinedAt: z.string(),
  isOwner: z.boolean(),
  /** Admins see each member's limit and use this month; null for others. */
  limit: z.number().int().nullable(),
  used: z.number().int().nullable(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamSchema = z.object({
  organization: organizationSchema.nullable(),
  /** The caller's role there; null when they belong to none. */
  role: z.enum(ORG_ROLES).nullable(),
  members: z.array(teamMemberSchema),
  /** Whether the caller may create an organization (the Team plan, and no organization yet). */
  canCreate: z.boolean(),
  /** The calendar month (UTC) the members' use counts, as YYYY-MM. */
  month: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

/** An invitation as its organization's admins see it: never its key. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  sentAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
  invitedBy: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationsSchema = z.object({ invitations: z.array(invitationSchema) });

export const inviteResultSchema = z.object({
  /** Addresses an invitation was sent to (a new one replaces a pending one). */
  invited: z.array(z.string()),
  /** Addresses of people already in the organization: nothing sent. */
  alreadyMembers: z.array(z.string()),
});
export type InviteResult = z.infer<typeof inviteResultSchema>;

export const joinResultSchema = z.object({ organization: z.object({ id: z.string(), name: z.string() }) });

/** Site admin: an organization made for a person, who becomes its owner and first admin. */
export const adminCreateOrganizationBodySchema = z.object({ name: orgNameSchema, ownerEmail: emailSchema }).strict();
export type AdminCreateOrganizationBody = z.input<typeof adminCreateOrganizationBodySchema>;

export const adminOrganizationMembersBodySchema = z.object({ id: z.uuid() }).strict();

export const adminOrganizationMembersSchema = z.object({
  organization: organizationSchema,
  members: z.array(teamMemberSchema),
  invitations: z.array(invitationSchema),
});
export type AdminOrganizationMembers = z.infer<typeof adminOrganizationMembersSchema>;

/** What the audit log records of organizations' actions (by their admins, members and site admins). */
export const ORG_ACTIONS = [
  'organization.create',
  'organization.invite',
  'organization.inviteResend',
  'organization.inviteRevoke',
  'organization.join',
  'organization.remove',
  'organization.makeAdmin',
  'organization.makeUser',
  'organization.limit',
  'organization.leave',
] as const;
export type OrgAction = (typeof ORG_ACTIONS)[number];
