import type { Invitation, Team, TeamMember } from '@parley/contract';
import { makeProfile } from '../../test/render-app';

export const ORG_ID = '5b0c1d2e-3f40-4a51-8b62-7c83d94e0a1f';
/** The person looking at the page (see viewer()). */
export const SELF_ID = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
export const GRACE_ID = '0f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b';
export const ALAN_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
export const OWNER_ID = '9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a50';

export function makeMember(overrides: Partial<TeamMember> = {}): TeamMember {
  return {
    id: SELF_ID,
    name: 'Ada',
    email: 'ada@example.com',
    role: 'admin',
    joinedAt: '2026-03-14T12:00:00.000Z',
    isOwner: false,
    limit: null,
    used: 1234,
    ...overrides,
  };
}

/** An organization of four: Olga owns it, Ada (the viewer, admin by default), Grace and Alan are users. */
export function makeTeam(role: 'admin' | 'user' = 'admin', overrides: Partial<Team> = {}): Team {
  const admin = role === 'admin';
  const usage = (limit: number | null, used: number) => (admin ? { limit, used } : { limit: null, used: null });
  const members = [
    makeMember({ id: OWNER_ID, name: 'Olga', email: 'olga@example.com', isOwner: true, ...usage(null, 40) }),
    // A member who is not an admin sees their own limit and use (the server sends theirs only).
    makeMember({ role, ...(admin ? usage(null, 1234) : { limit: 100, used: 12 }) }),
    makeMember({ id: GRACE_ID, name: 'Grace', email: 'grace@example.com', role: 'user', ...usage(500, 450) }),
    makeMember({ id: ALAN_ID, name: 'Alan', email: 'alan@example.com', role: 'user', ...usage(0, 0) }),
  ];
  return {
    organization: {
      id: ORG_ID,
      name: 'Analytical Engines',
      seats: 5,
      members: members.length,
      pendingInvitations: 1,
      plan: 'team',
      ownerId: OWNER_ID,
      createdAt: '2026-01-02T09:00:00.000Z',
    },
    role,
    members,
    canCreate: false,
    month: '2026-11',
    ...overrides,
  };
}

export const noTeam = (canCreate = false): Team => ({
  organization: null,
  role: null,
  members: [],
  canCreate,
  month: '2026-11',
});

export function makeInvitation(overrides: Partial<Invitation> = {}): Invitation {
  return {
    id: '7d6c5b4a-3928-4716-a5b4-c3d2e1f0a9b8',
    email: 'charles@example.com',
    sentAt: '2026-11-20T09:30:00.000Z',
    expiresAt: '2026-11-27T09:30:00.000Z',
    expired: false,
    invitedBy: 'Ada',
    ...overrides,
  };
}

/** The signed-in profile of the person looking (Ada). */
export const viewer = () => makeProfile({ id: SELF_ID, profileId: SELF_ID });
