import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getI18n } from '../../../lib/i18n';
import { mockApi, ok, renderApp } from '../../../test/render-app';
import {
  ORG_ID,
  adminProfile,
  freePlan,
  makeAdminOrganization,
  makeAdminUser,
  makeOrganizationMembers,
} from '../test-fixtures';

const slow = { timeout: 10_000 };
type Handlers = Parameters<typeof mockApi>[0];
const calls = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path);
const bodyOf = (call: unknown[] | undefined) => JSON.parse(String((call?.[1] as RequestInit).body));

const organizations = (list = [makeAdminOrganization()], total = list.length) =>
  ok({ available: true, organizations: list, total });

function asAdmin(handlers: Handlers = {}) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/user/profile': ok(adminProfile()),
    'POST /api/admin/users': ok({ users: [makeAdminUser()], total: 1, page: 1, pageSize: 20 }),
    'POST /api/admin/organizations': organizations(),
    'POST /api/admin/organizations/members': ok(makeOrganizationMembers()),
    ...handlers,
  });
}

const teamPlan = (userId: string) => ({
  ...freePlan(userId),
  organizationId: ORG_ID,
  plan: {
    plan: 'team' as const,
    basePlan: 'free' as const,
    subscription: {
      plan: 'team' as const,
      duration: 'month' as const,
      status: 'active' as const,
      quantity: 5,
      source: 'admin' as const,
      validFrom: '2026-11-01T00:00:00.000Z',
      currentPeriodEnd: null,
      daysRemaining: null,
      cancelAtPeriodEnd: false,
      trialEnd: null,
      promoCode: null,
      graceUntil: null,
      student: false,
    },
  },
});

describe('/admin-portal?tab=organizations', { timeout: 30_000 }, () => {
  it('lists organizations with search and pages, and opens one: members, their use, invitations, a plan', async () => {
    const user = userEvent.setup();
    const fetchMock = asAdmin({
      'POST /api/admin/organizations': (_url, init) => {
        const body = JSON.parse(String(init.body));
        return organizations([makeAdminOrganization({ name: body.page === 2 ? 'Zeta' : 'Analytical Engines' })], 41);
      },
      'POST /api/admin/userPlan': (_url, init) => ok(teamPlan(JSON.parse(String(init.body)).id)),
    });
    const { router } = renderApp('/admin-portal?tab=organizations');
    const list = await screen.findByRole('list', { name: 'Organizations' }, slow);
    expect(
      within(list).getByRole('button', { name: /Analytical Engines.*Members \/ seats:\s?2 \/ 5.*Team.*Nov 2, 2026/ }),
    ).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3 · Total: 41')).toBeInTheDocument();
    expect(bodyOf(calls(fetchMock, '/api/admin/organizations')[0])).toEqual({ search: '', page: 1, pageSize: 20 });

    await user.type(screen.getByLabelText('Search by name'), '  engines ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(bodyOf(calls(fetchMock, '/api/admin/organizations').at(-1))).toEqual({
        search: 'engines',
        page: 1,
        pageSize: 20,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('button', { name: /Zeta/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));

    await user.click(await screen.findByRole('button', { name: /Analytical Engines/ }));
    const details = await screen.findByRole('region', { name: 'Analytical Engines' });
    await waitFor(() => expect(within(details).getByRole('heading', { name: 'Analytical Engines' })).toHaveFocus());
    expect(router.state.location.search).toBe(`?tab=organizations&org=${ORG_ID}`);
    expect(bodyOf(calls(fetchMock, '/api/admin/organizations/members')[0])).toEqual({ id: ORG_ID });
    const value = (label: string) => within(details).getByText(label, { selector: 'dt' }).nextSibling;
    expect(value('Owner')).toHaveTextContent('Ada');
    expect(value('Members / seats')).toHaveTextContent('2 / 5');
    expect(value('Pending invitations')).toHaveTextContent('1');

    const members = within(details).getByRole('list', { name: 'Members' });
    const [ada, charles] = within(members).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(ada).toHaveTextContent(/Ada\s*Owner.*ada@example\.com.*Role: Admin.*Joined: Nov 2, 2026/);
    expect(ada).toHaveTextContent('Monthly limit: No limit');
    expect(ada).toHaveTextContent('Used this month: 1,234');
    expect(charles).toHaveTextContent(/Charles.*Role: User.*Monthly limit: 500.*Used this month: 42/);
    expect(charles).not.toHaveTextContent('Owner');

    const invitations = within(details).getByRole('list', { name: 'Pending invitations' });
    const [mary, old] = within(invitations).getAllByRole('listitem');
    expect(mary).toHaveTextContent(/mary@example\.com.*Invited by Ada.*Sent Nov 18, 2026.*Expires Nov 25, 2026/);
    expect(old).toHaveTextContent(/old@example\.com.*Expired/);

    // A member's plan: the one that pays for them there (the owner's Team plan).
    const planButton = within(charles).getByRole('button', { name: 'Plan: Charles' });
    expect(planButton).toHaveAttribute('aria-expanded', 'false');
    await user.click(planButton);
    expect(planButton).toHaveAttribute('aria-expanded', 'true');
    expect(await within(charles).findByText('Team · Active · given by an admin')).toBeInTheDocument();
    expect(bodyOf(calls(fetchMock, '/api/admin/userPlan').at(-1))).toEqual({ id: 'u-charles', org: ORG_ID });

    await user.click(within(details).getByRole('button', { name: 'Back to the list' }));
    expect(router.state.location.search).toBe('?tab=organizations');
    await waitFor(() => expect(screen.getByRole('button', { name: /Analytical Engines/ })).toHaveFocus());
  });

  it('shows dates and counts in the reader’s language', async () => {
    await getI18n().changeLanguage('fr');
    asAdmin({ 'GET /api/user/profile': ok({ ...adminProfile(), language: 'fr' }) });
    renderApp('/admin-portal?tab=organizations');
    const list = await screen.findByRole('list', { name: 'Organisations' }, slow);
    expect(within(list).getByRole('button')).toHaveTextContent(/Membres \/ places: 2 \/ 5.*Équipe.*2 nov\. 2026/);
    expect(screen.getByRole('button', { name: 'Créer une organisation' })).toBeInTheDocument();
  });

  it('creates an organization after its question, then shows it', async () => {
    const user = userEvent.setup();
    const created = makeOrganizationMembers({ name: 'Difference Engines', members: 1, pendingInvitations: 0 });
    created.members = created.members.slice(0, 1);
    created.invitations = [];
    const fetchMock = asAdmin({
      'POST /api/admin/organizations/create': ok(created, 'Organization created.'),
    });
    const { router } = renderApp('/admin-portal?tab=organizations');
    await user.click(await screen.findByRole('button', { name: 'Create organization' }, slow));
    expect(screen.getByRole('heading', { name: 'Create an organization' })).toHaveFocus();
    const form = screen.getByRole('form', { name: 'Create an organization' });
    expect(form).toHaveTextContent('npm run admin -- set-plan --email owner@example.com --plan team --seats N');

    // The contract's rules, before anything is sent.
    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    expect(await within(form).findByText("Enter the organization's name.")).toBeInTheDocument();
    expect(within(form).getByText("Enter the owner's email address.")).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Name'), 'x'.repeat(81));
    await user.type(within(form).getByLabelText("Owner's email"), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    expect(await within(form).findByText('At most 80 characters.')).toBeInTheDocument();
    expect(within(form).getByText('Enter a valid email address.')).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), '  Difference Engines ');
    await user.clear(within(form).getByLabelText("Owner's email"));
    await user.type(within(form).getByLabelText("Owner's email"), ' Ada@Example.com');
    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Create this organization?' });
    expect(dialog).toHaveTextContent(
      '“Difference Engines” will be created with ada@example.com as its owner and first admin. Their plan pays for it.',
    );
    await user.keyboard('{Escape}');
    expect(calls(fetchMock, '/api/admin/organizations/create')).toHaveLength(0);

    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Organization created.')).toBeInTheDocument();
    expect(bodyOf(calls(fetchMock, '/api/admin/organizations/create')[0])).toEqual({
      name: 'Difference Engines',
      ownerEmail: 'ada@example.com',
    });
    const details = await screen.findByRole('region', { name: 'Difference Engines' });
    expect(within(within(details).getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(1);
    expect(within(details).getByText('No invitations waiting for an answer.')).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?tab=organizations&org=${ORG_ID}`);
    // The answer is the details: they are not asked for again; the list is.
    expect(calls(fetchMock, '/api/admin/organizations/members')).toHaveLength(0);
    await waitFor(() => expect(calls(fetchMock, '/api/admin/organizations').length).toBeGreaterThan(1));
  });

  it('shows the server’s message when it refuses, and which field it is about', async () => {
    const user = userEvent.setup();
    let answer = { status: 404, body: { status: 404, code: 'NOT_FOUND', message: 'Not found.' } };
    asAdmin({ 'POST /api/admin/organizations/create': () => answer });
    renderApp('/admin-portal?tab=organizations');
    await user.click(await screen.findByRole('button', { name: 'Create organization' }, slow));
    const form = screen.getByRole('form', { name: 'Create an organization' });
    await user.type(within(form).getByLabelText('Name'), 'Nowhere');
    await user.type(within(form).getByLabelText("Owner's email"), 'nobody@example.com');
    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Create' }));
    expect(await within(form).findByText('Not found.')).toBeInTheDocument();
    expect(within(form).getByText('No account uses this email address.')).toBeInTheDocument();
    expect(within(form).getByLabelText("Owner's email")).toHaveAttribute('aria-invalid', 'true');

    answer = {
      status: 400,
      body: {
        status: 400,
        code: 'ALREADY_IN_ORGANIZATION',
        message: 'You are already a member of an organization. Leave it first.',
      },
    };
    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Create' }));
    expect(
      await within(form).findByText('You are already a member of an organization. Leave it first.'),
    ).toBeInTheDocument();
    expect(within(form).getByText('This person already belongs to an organization.')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Create an organization' })).toBeInTheDocument();
  });

  it('names organizations’ actions in the audit log and links to the organization', async () => {
    const user = userEvent.setup();
    const entry = (id: string, action: string, more: Record<string, unknown>) => ({
      id,
      at: '2026-11-20T09:30:00.000Z',
      actorId: 'u-admin',
      actorEmail: 'root@example.com',
      action,
      targetUserId: null,
      targetEmail: null,
      organizationId: ORG_ID,
      before: null,
      after: null,
      ...more,
    });
    const fetchMock = asAdmin({
      'POST /api/admin/audit': ok({
        entries: [
          entry('a1', 'organization.create', {
            targetUserId: 'u-ada',
            targetEmail: 'ada@example.com',
            after: { name: 'Analytical Engines', ownerId: 'u-ada' },
          }),
          entry('a2', 'organization.limit', {
            targetEmail: 'charles@example.com',
            before: { limit: null },
            after: { limit: 500 },
          }),
          entry('a3', 'organization.makeAdmin', {
            targetEmail: 'charles@example.com',
            before: { role: 'user' },
            after: { role: 'admin' },
          }),
          entry('a4', 'organization.invite', { after: { email: 'mary@example.com', invitationId: 'i-1' } }),
        ],
        total: 4,
      }),
    });
    renderApp('/admin-portal?tab=audit');
    const log = await screen.findByRole('list', { name: 'Audit' }, slow);
    // The entries, not the lines of their changes.
    const [create, limit, admin, invite] = Array.from(log.children) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(create).toHaveTextContent('Organization created · ada@example.com · organization Analytical Engines');
    expect(create).toHaveTextContent('Name — → Analytical Engines');
    expect(limit).toHaveTextContent(`Monthly limit set · charles@example.com · organization ${ORG_ID}`);
    expect(limit).toHaveTextContent('Monthly limit No limit → 500');
    expect(admin).toHaveTextContent('Made an organization admin');
    expect(admin).toHaveTextContent('Role User → Admin');
    expect(invite).toHaveTextContent(`Invitation sent · organization ${ORG_ID}`);
    expect(invite).toHaveTextContent('Email — → mary@example.com');

    // Each organization action can be looked for.
    const filter = screen.getByLabelText('Action');
    for (const label of [
      'Organization created',
      'Invitation sent',
      'Invitation sent again',
      'Invitation revoked',
      'Joined an organization',
      'Member removed',
      'Made an organization admin',
      'Made an organization user',
      'Monthly limit set',
      'Left an organization',
    ]) {
      expect(within(filter).getByRole('option', { name: label })).toBeInTheDocument();
    }
    await user.selectOptions(filter, 'Invitation revoked');
    await waitFor(() =>
      expect(bodyOf(calls(fetchMock, '/api/admin/audit').at(-1))).toEqual({
        page: 1,
        pageSize: 25,
        action: 'organization.inviteRevoke',
      }),
    );

    await user.click(within(create).getByRole('link', { name: 'Analytical Engines' }));
    expect(await screen.findByRole('tab', { name: 'Organizations', selected: true })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Analytical Engines' })).toBeInTheDocument();
  });
});
