import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Team } from '@parley/contract';
import { getI18n } from '../../../lib/i18n';
import { mockApi, ok, renderApp } from '../../../test/render-app';
import {
  ALAN_ID,
  GRACE_ID,
  makeInvitation,
  makeTeam,
  noTeam,
  ORG_ID,
  OWNER_ID,
  SELF_ID,
  viewer,
} from '../test-fixtures';

const slow = { timeout: 10_000 };
type Handlers = Parameters<typeof mockApi>[0];
type FetchMock = ReturnType<typeof mockApi>;
const calls = (fetchMock: FetchMock, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path);
const queryOf = (call: unknown[] | undefined) => new URL(String(call?.[0]), 'http://localhost').searchParams;
const bodyOf = (call: unknown[] | undefined) => JSON.parse(String((call?.[1] as RequestInit).body));

function signedIn(team: Team, handlers: Handlers = {}) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/user/profile': ok(viewer()),
    'POST /api/org/team': ok(team),
    'POST /api/org/invites': ok({ invitations: [makeInvitation()] }),
    ...handlers,
  });
}

const row = (name: string, listName = 'All Team Members') => {
  const list = screen.getByRole('list', { name: listName });
  return within(list)
    .getAllByRole('listitem')
    .find((item) => within(item).queryByText(name, { selector: 'span' }))!;
};

async function openActions(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('button', { name: `Actions for ${name}` }));
  return screen.getByRole('menu', { name: `Actions for ${name}` });
}

describe('/organization', { timeout: 30_000 }, () => {
  it('shows an admin the organization, its seats and month, everyone with roles, limits and use', async () => {
    signedIn(makeTeam('admin'));
    renderApp('/organization');
    expect(await screen.findByRole('heading', { name: 'Analytical Engines' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Manage Organization | Parley');
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Organization' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Organization' })).toHaveAttribute('href', '/organization');
    expect(screen.getByText('Team plan · Your role: Admin')).toBeInTheDocument();
    // Four members and one pending invitation hold five seats.
    expect(screen.getByText('5 of 5 seats used')).toBeInTheDocument();
    expect(screen.getByText('Members: 4 · Pending invitations: 1')).toBeInTheDocument();
    expect(screen.getByText('November 2026')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /All Team Members/, selected: true })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Invited Users/ })).toBeInTheDocument();

    const grace = row('Grace');
    expect(within(grace).getByText('User')).toBeInTheDocument();
    expect(within(grace).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(grace).getByText('Joined March 14, 2026')).toBeInTheDocument();
    expect(within(grace).getByText('Credits used this month: 450 / 500')).toBeInTheDocument();
    expect(within(row('Ada')).getByText('Credits used this month: 1,234 · No limit')).toBeInTheDocument();
    expect(within(row('Ada')).getByText('You')).toBeInTheDocument();
    expect(within(row('Olga')).getByText('Owner')).toBeInTheDocument();
  });

  it('offers the owner no Remove, one’s own row Switch To User, and others Make Admin or Make User', async () => {
    const user = userEvent.setup();
    signedIn(makeTeam('admin'));
    renderApp('/organization');
    await screen.findByRole('heading', { name: 'Analytical Engines' }, slow);

    const owner = await openActions(user, 'Olga');
    expect(
      within(owner)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Make User', 'Set Limit']);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Actions for Olga' })).toHaveFocus();

    const self = await openActions(user, 'Ada');
    expect(
      within(self)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Switch To User', 'Set Limit']);
    await user.keyboard('{Escape}');

    const grace = await openActions(user, 'Grace');
    expect(
      within(grace)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Make Admin', 'Set Limit', 'Remove']);
    // The menu is used by keyboard: focus starts on the first item, arrows move.
    expect(within(grace).getByRole('menuitem', { name: 'Make Admin' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(within(grace).getByRole('menuitem', { name: 'Remove' })).toHaveFocus();
  });

  it('removes a member only after the confirmation, and shows the team the server answers', async () => {
    const user = userEvent.setup();
    const before = makeTeam('admin');
    const after: Team = {
      ...before,
      organization: { ...before.organization!, members: 3 },
      members: before.members.filter((m) => m.id !== GRACE_ID),
    };
    const fetchMock = signedIn(before, { 'POST /api/org-admin/remove/user': ok(after, 'Member removed.') });
    renderApp('/organization');
    await screen.findByRole('heading', { name: 'Analytical Engines' }, slow);

    await user.click(within(await openActions(user, 'Grace')).getByRole('menuitem', { name: 'Remove' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Remove Grace?' });
    expect(dialog).toHaveTextContent('Grace (grace@example.com) will leave the organization');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetchMock, '/api/org-admin/remove/user')).toHaveLength(0);

    await user.click(within(await openActions(user, 'Grace')).getByRole('menuitem', { name: 'Remove' }));
    dialog = screen.getByRole('alertdialog', { name: 'Remove Grace?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(queryOf(calls(fetchMock, '/api/org-admin/remove/user')[0]).get('id')).toBe(GRACE_ID);
    expect(await screen.findByText('Member removed.')).toBeInTheDocument();
    expect(screen.queryByText('grace@example.com')).not.toBeInTheDocument();
  });

  it('Make Admin, Make User and Switch To User each call their endpoint after the confirmation', async () => {
    const user = userEvent.setup();
    const team = makeTeam('admin');
    const fetchMock = signedIn(team, {
      'POST /api/org-admin/make-admin/user': ok(team, 'Role changed.'),
      'POST /api/org-admin/remove/admin': (url) =>
        // Switching oneself to user: the page becomes read only.
        url.searchParams.get('id') === SELF_ID ? ok(makeTeam('user'), 'Role changed.') : ok(team, 'Role changed.'),
    });
    renderApp('/organization');
    await screen.findByRole('heading', { name: 'Analytical Engines' }, slow);

    await user.click(within(await openActions(user, 'Alan')).getByRole('menuitem', { name: 'Make Admin' }));
    const promote = screen.getByRole('alertdialog', { name: 'Make Alan an admin?' });
    await user.click(within(promote).getByRole('button', { name: 'Make Admin' }));
    await waitFor(() => expect(calls(fetchMock, '/api/org-admin/make-admin/user')).toHaveLength(1));
    expect(queryOf(calls(fetchMock, '/api/org-admin/make-admin/user')[0]).get('id')).toBe(ALAN_ID);

    await user.click(within(await openActions(user, 'Olga')).getByRole('menuitem', { name: 'Make User' }));
    const demote = screen.getByRole('alertdialog', { name: 'Make Olga a user?' });
    await user.click(within(demote).getByRole('button', { name: 'Make User' }));
    await waitFor(() => expect(calls(fetchMock, '/api/org-admin/remove/admin')).toHaveLength(1));
    expect(queryOf(calls(fetchMock, '/api/org-admin/remove/admin')[0]).get('id')).toBe(OWNER_ID);

    await user.click(within(await openActions(user, 'Ada')).getByRole('menuitem', { name: 'Switch To User' }));
    const self = screen.getByRole('alertdialog', { name: 'Switch to user?' });
    expect(self).toHaveTextContent('You will no longer be able to manage the organization.');
    await user.click(within(self).getByRole('button', { name: 'Switch To User' }));
    await waitFor(() => expect(calls(fetchMock, '/api/org-admin/remove/admin')).toHaveLength(2));
    expect(queryOf(calls(fetchMock, '/api/org-admin/remove/admin')[1]).get('id')).toBe(SELF_ID);
    expect(await screen.findByText('Team plan · Your role: User')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Member' })).not.toBeInTheDocument();
  });

  it('shows the server’s message when a role change is refused', async () => {
    const user = userEvent.setup();
    signedIn(makeTeam('admin'), {
      'POST /api/org-admin/remove/admin': {
        status: 400,
        body: {
          status: 400,
          code: 'LAST_ORG_ADMIN',
          message: 'An organization needs at least one admin. Make someone else admin first.',
        },
      },
    });
    renderApp('/organization');
    await screen.findByRole('heading', { name: 'Analytical Engines' }, slow);
    await user.click(within(await openActions(user, 'Ada')).getByRole('menuitem', { name: 'Switch To User' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Switch To User' }));
    expect(
      await screen.findByText('An organization needs at least one admin. Make someone else admin first.'),
    ).toBeInTheDocument();
  });

  it('sets a monthly limit, and No limit sends null', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(makeTeam('admin'), {
      'POST /api/org-admin/member-token/limit': ok(makeTeam('admin'), 'Limit saved.'),
    });
    renderApp('/organization');
    await screen.findByRole('heading', { name: 'Analytical Engines' }, slow);

    await user.click(within(await openActions(user, 'Grace')).getByRole('menuitem', { name: 'Set Limit' }));
    let dialog = screen.getByRole('dialog', { name: 'Monthly limit for Grace' });
    expect(within(dialog).getByRole('radio', { name: 'Limit per month' })).toBeChecked();
    const field = within(dialog).getByLabelText('Credits per month');
    expect(field).toHaveValue(500);
    expect(within(dialog).getByText('Used this month: 450')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '2000000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter a whole number from 0 to 1,000,000.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/org-admin/member-token/limit')).toHaveLength(0);
    await user.clear(field);
    await user.type(field, '750');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(calls(fetchMock, '/api/org-admin/member-token/limit')[0])).toEqual({ id: GRACE_ID, limit: 750 });

    await user.click(within(await openActions(user, 'Alan')).getByRole('menuitem', { name: 'Set Limit' }));
    dialog = screen.getByRole('dialog', { name: 'Monthly limit for Alan' });
    await user.click(within(dialog).getByRole('radio', { name: 'No limit' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetchMock, '/api/org-admin/member-token/limit')).toHaveLength(2));
    expect(bodyOf(calls(fetchMock, '/api/org-admin/member-token/limit')[1])).toEqual({ id: ALAN_ID, limit: null });
  });

  it('lists invitations for admins: Resend at once, Revoke after the confirmation', async () => {
    const user = userEvent.setup();
    const invitation = makeInvitation();
    const expired = makeInvitation({
      id: '8e7d6c5b-4a39-4827-b6c5-d4e3f2a1b0c9',
      email: 'mary@example.com',
      expired: true,
      invitedBy: null,
    });
    let pending = [invitation, expired];
    const fetchMock = signedIn(makeTeam('admin'), {
      'POST /api/org/invites': () => ok({ invitations: pending }),
      'POST /api/org-admin/invite/resend': () => ok({ invitations: pending }, 'Invitation sent again.'),
      'POST /api/org-admin/invite/revoke': () => {
        pending = [expired];
        return ok({ invitations: pending }, 'Invitation revoked.');
      },
    });
    renderApp('/organization?tab=invited');
    const list = await screen.findByRole('list', { name: 'Invited Users' }, slow);
    expect(screen.getByRole('tab', { name: /Invited Users/, selected: true })).toBeInTheDocument();
    expect(within(list).getByText('charles@example.com')).toBeInTheDocument();
    expect(within(list).getByText('Sent November 20, 2026 · Link works until November 27, 2026')).toBeInTheDocument();
    expect(within(list).getByText('Invited by Ada')).toBeInTheDocument();
    expect(within(list).getByText('Expired')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resend the invitation to mary@example.com' }));
    await waitFor(() => expect(calls(fetchMock, '/api/org-admin/invite/resend')).toHaveLength(1));
    expect(queryOf(calls(fetchMock, '/api/org-admin/invite/resend')[0]).get('id')).toBe(expired.id);
    expect(await screen.findByText('Invitation sent again.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke the invitation to charles@example.com' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke this invitation?' });
    expect(dialog).toHaveTextContent('The link sent to charles@example.com will stop working');
    expect(calls(fetchMock, '/api/org-admin/invite/revoke')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls(fetchMock, '/api/org-admin/invite/revoke')).toHaveLength(1));
    expect(queryOf(calls(fetchMock, '/api/org-admin/invite/revoke')[0]).get('id')).toBe(invitation.id);
    await waitFor(() => expect(screen.queryByText('charles@example.com')).not.toBeInTheDocument());
  });

  it('says when there are no invitations, and when no one else has joined yet', async () => {
    const user = userEvent.setup();
    const alone = makeTeam('admin');
    signedIn(
      {
        ...alone,
        organization: { ...alone.organization!, members: 1, pendingInvitations: 0 },
        members: [alone.members[1]!],
      },
      { 'POST /api/org/invites': ok({ invitations: [] }) },
    );
    renderApp('/organization');
    expect(await screen.findByText('You are the only member so far', {}, slow)).toBeInTheDocument();
    expect(screen.getByText('Invite your colleagues by email: each gets a link to join.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /Team Users/ }));
    expect(screen.getByText('No team users')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: /Invited Users/ })).toHaveFocus();
    expect(await screen.findByText('No pending invitations')).toBeInTheDocument();
  });

  it('gives a non-admin the list to read, no admin actions, no invitations, and Leave Organization', async () => {
    const user = userEvent.setup();
    let team = makeTeam('user');
    const fetchMock = signedIn(team, {
      'POST /api/org/team': () => ok(team),
      'POST /api/org/leave': () => {
        team = noTeam();
        return ok(team, 'You have left the organization.');
      },
    });
    renderApp('/organization?tab=invited');
    expect(await screen.findByRole('heading', { name: 'Analytical Engines' }, slow)).toBeInTheDocument();
    expect(screen.getByText('Team plan · Your role: User')).toBeInTheDocument();
    // ?tab=invited is an admin's tab: the members show instead.
    expect(screen.getByRole('tab', { name: /All Team Members/, selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /Invited Users/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Member' })).not.toBeInTheDocument();
    // Their own use and limit, nobody else's.
    expect(within(row('Ada')).getByText('Credits used this month: 12 / 100')).toBeInTheDocument();
    expect(screen.getAllByText(/Credits used this month/)).toHaveLength(1);
    expect(within(row('Grace')).getByText('User')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/org/invites')).toHaveLength(0);

    await user.click(screen.getByRole('tab', { name: /Team Users/ }));
    expect(within(screen.getByRole('list', { name: 'Team Users' })).getAllByRole('listitem')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Leave Organization' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Leave Analytical Engines?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave Organization' }));
    await waitFor(() => expect(calls(fetchMock, '/api/org/leave')).toHaveLength(1));
    expect(queryOf(calls(fetchMock, '/api/org/leave')[0]).get('id')).toBe(ORG_ID);
    expect(await screen.findByText('You are not in an organization')).toBeInTheDocument();
    expect(screen.getByText('You have left the organization.')).toBeInTheDocument();
  });

  it('does not offer the owner Leave Organization', async () => {
    const team = makeTeam('admin');
    signedIn({ ...team, organization: { ...team.organization!, ownerId: SELF_ID } });
    renderApp('/organization');
    expect(await screen.findByRole('heading', { name: 'Analytical Engines' }, slow)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave Organization' })).not.toBeInTheDocument();
    expect(screen.getByText(/You own this organization/)).toBeInTheDocument();
  });

  it('tells someone in no organization that organizations come with the Team plan', async () => {
    const fetchMock = signedIn(noTeam(false));
    renderApp('/organization');
    expect(await screen.findByRole('heading', { name: 'You are not in an organization' }, slow)).toBeInTheDocument();
    expect(screen.getByText(/Organizations come with the Team plan/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the Team plan' })).toHaveAttribute('href', '/subscription');
    expect(screen.getByText(/Open the link in the invitation email/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Organization' })).not.toBeInTheDocument();
    expect(calls(fetchMock, '/api/org/invites')).toHaveLength(0);
  });

  it('lets a Team subscriber create their organization', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(noTeam(true), {
      'POST /api/org/create': ok(makeTeam('admin'), 'Organization created.'),
    });
    renderApp('/organization');
    await user.click(await screen.findByRole('button', { name: 'Create Organization' }, slow));
    expect(screen.getByText('Enter a name of up to 80 characters.')).toBeInTheDocument();
    expect(calls(fetchMock, '/api/org/create')).toHaveLength(0);
    await user.type(screen.getByLabelText('Organization name'), '  Analytical Engines ');
    await user.click(screen.getByRole('button', { name: 'Create Organization' }));
    expect(await screen.findByRole('heading', { name: 'Analytical Engines' })).toBeInTheDocument();
    expect(bodyOf(calls(fetchMock, '/api/org/create')[0])).toEqual({ name: 'Analytical Engines' });
  });

  it('speaks French with French numbers and dates', async () => {
    await getI18n().changeLanguage('fr');
    signedIn(makeTeam('admin'), { 'GET /api/user/profile': ok({ ...viewer(), language: 'fr' }) });
    renderApp('/organization');
    expect(await screen.findByRole('heading', { name: 'Analytical Engines' }, slow)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Gérer l’organisation | Parley'));
    expect(screen.getByText('novembre 2026')).toBeInTheDocument();
    const all = 'Tous les membres de l’équipe';
    expect(
      within(row('Ada', all)).getByText(/^Crédits utilisés ce mois-ci\s:\s1\s234 · Sans limite$/),
    ).toBeInTheDocument();
    expect(within(row('Grace', all)).getByText('Membre depuis le 14 mars 2026')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Tous les membres de l’équipe/ })).toBeInTheDocument();
  });
});
