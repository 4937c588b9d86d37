import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getI18n } from '../../../lib/i18n';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';
import { adminProfile, freePlan, makeAdminUser } from '../test-fixtures';

const slow = { timeout: 10_000 };
type Handlers = Parameters<typeof mockApi>[0];
const calls = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path);
const bodyOf = (call: unknown[] | undefined) => JSON.parse(String((call?.[1] as RequestInit).body));
const queryOf = (call: unknown[] | undefined) => new URL(String(call?.[0]), 'http://localhost').searchParams;

const users = (list = [makeAdminUser()], total = list.length) => ok({ users: list, total, page: 1, pageSize: 20 });

function asAdmin(handlers: Handlers = {}) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/user/profile': ok(adminProfile()),
    'POST /api/admin/users': users(),
    'POST /api/admin/userPlan': ok(freePlan()),
    'POST /api/admin/automations': ok({ automations: [] }),
    ...handlers,
  });
}

describe('/admin-portal', { timeout: 30_000 }, () => {
  it('is not for people who are not site admins: no menu entry, and a clear "not allowed"', async () => {
    localStorage.setItem('token', 'tok');
    const fetchMock = mockApi({ 'GET /api/user/profile': ok(makeProfile()) });
    renderApp('/admin-portal');
    expect(await screen.findByRole('heading', { name: 'Not allowed' }, slow)).toBeInTheDocument();
    expect(screen.getByText(/The admin portal is for site admins only/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/home');
    expect(screen.queryByRole('link', { name: 'Admin Portal' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/admin/'))).toBe(false);
  });

  it('shows site admins the menu entry, and lists people with search, sort and pages', async () => {
    const user = userEvent.setup();
    const fetchMock = asAdmin({
      'POST /api/admin/users': (_url, init) => {
        const body = JSON.parse(String(init.body));
        return ok({
          users: [makeAdminUser({ name: body.page === 2 ? 'Zoe' : 'Ada' })],
          total: 41,
          page: body.page,
          pageSize: 20,
        });
      },
    });
    renderApp('/admin-portal');
    expect(await screen.findByRole('link', { name: 'Admin Portal' }, slow)).toHaveAttribute('href', '/admin-portal');
    expect(await screen.findByRole('tab', { name: 'Users', selected: true })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'People' });
    expect(within(list).getByRole('button', { name: /Ada.*ada@example\.com.*Free.*1,237/ })).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3 · Total: 41')).toBeInTheDocument();
    expect(bodyOf(calls(fetchMock, '/api/admin/users')[0])).toEqual({
      search: '',
      sort: 'createdAt',
      order: 'desc',
      page: 1,
      pageSize: 20,
    });

    await user.type(screen.getByLabelText('Search by email or name'), '  ada@ ');
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Last sign-in');
    await user.selectOptions(screen.getByLabelText('Order'), 'Ascending');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(bodyOf(calls(fetchMock, '/api/admin/users').at(-1))).toEqual({
        search: 'ada@',
        sort: 'lastLoginAt',
        order: 'asc',
        page: 1,
        pageSize: 20,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('button', { name: /Zoe/ })).toBeInTheDocument();
    expect(bodyOf(calls(fetchMock, '/api/admin/users').at(-1)).page).toBe(2);
  });

  it('opens a person: profile, plan and use, in the reader’s language', async () => {
    await getI18n().changeLanguage('fr');
    const user = userEvent.setup();
    asAdmin({ 'GET /api/user/profile': ok({ ...adminProfile(), language: 'fr' }) });
    renderApp('/admin-portal');
    await user.click(await screen.findByRole('button', { name: /Ada/ }, slow));
    const details = screen.getByRole('region', { name: 'Ada' });
    expect(within(details).getByRole('heading', { name: 'Ada' })).toHaveFocus();
    const value = (label: string) => within(details).getByText(label, { selector: 'dt' }).nextSibling;
    expect(value('Crédits basiques')).toHaveTextContent(/^1\s250$/);
    expect(value('Basique')).toHaveTextContent(/^1\s234$/);
    expect(value('Appareils connectés')).toHaveTextContent('2');
    expect(value('Inscription')).toHaveTextContent('14 mars 2025');
    await within(details).findByText('Plan sans paiement');
    expect(value('Plan')).toHaveTextContent('Gratuit');
    // No live plan: nothing to remove.
    expect(within(details).queryByRole('button', { name: 'Retirer le plan' })).not.toBeInTheDocument();
    await user.click(within(details).getByRole('button', { name: 'Retour à la liste' }));
    await waitFor(() => expect(screen.getByRole('button', { name: /Ada/ })).toHaveFocus());
  });

  it('Force Logout warns that other devices will be signed out, and only then signs the person out', async () => {
    const user = userEvent.setup();
    const fetchMock = asAdmin({
      'POST /api/admin/forceLogout': ok({ ended: 2 }, 'The user has been signed out of every device.'),
    });
    renderApp('/admin-portal');
    await user.click(await screen.findByRole('button', { name: /Ada/ }, slow));
    await user.click(screen.getByRole('button', { name: 'Force Logout' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Force Logout?' });
    expect(dialog).toHaveTextContent(
      'Ada will be signed out of every device, the browser extension included. They can sign in again.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(calls(fetchMock, '/api/admin/forceLogout')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Force Logout' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Force Logout' }));
    expect(await screen.findByText('The user has been signed out of every device.')).toBeInTheDocument();
    const [sent] = calls(fetchMock, '/api/admin/forceLogout');
    expect(sent?.[1]?.method).toBe('POST');
    expect(queryOf(sent).get('id')).toBe('u-ada');
  });

  it('grants lifetime credits, allows multiple login, removes a plan and deletes, each after its question', async () => {
    const user = userEvent.setup();
    const withPlan = {
      ...freePlan(),
      plan: {
        plan: 'pro' as const,
        basePlan: 'free' as const,
        subscription: {
          plan: 'pro' as const,
          duration: 'month' as const,
          status: 'active' as const,
          quantity: 1,
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
    };
    const fetchMock = asAdmin({
      'POST /api/admin/users': users([makeAdminUser({ plan: 'pro' })]),
      'POST /api/admin/userPlan': ok(withPlan),
      'PUT /api/admin/editUser': (_url, init) => ok(makeAdminUser(JSON.parse(String(init.body))), 'Changes saved.'),
      'POST /api/admin/RemoveUserPlan': ok(freePlan(), "The user's plan has been removed."),
      'DELETE /api/admin/deleteUser': ok({ deleted: 1 }, 'The user and their data have been deleted.'),
    });
    renderApp('/admin-portal');
    await user.click(await screen.findByRole('button', { name: /Ada/ }, slow));

    await user.click(screen.getByRole('button', { name: 'Grant lifetime free credits' }));
    expect(screen.getByRole('alertdialog', { name: 'Grant lifetime free credits?' })).toHaveTextContent(
      'Ada will keep free credits for life.',
    );
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Grant lifetime free credits' }),
    );
    await waitFor(() => expect(calls(fetchMock, '/api/admin/editUser')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, '/api/admin/editUser')[0])).toEqual({ id: 'u-ada', lifetimeUser: true });

    await user.click(screen.getByRole('button', { name: 'Allow multiple login' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Allow multiple login' }));
    await waitFor(() => expect(calls(fetchMock, '/api/admin/editUser')).toHaveLength(2));
    expect(bodyOf(calls(fetchMock, '/api/admin/editUser')[1])).toEqual({ id: 'u-ada', multipleLogin: true });

    await user.click(await screen.findByRole('button', { name: 'Remove plan' }));
    expect(screen.getByRole('alertdialog', { name: 'Remove this plan?' })).toHaveTextContent(
      "Ada's Pro plan ends now (a paid subscription is cancelled without refund) and they return to Free.",
    );
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove plan' }));
    expect(await screen.findByText("The user's plan has been removed.")).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(screen.getByRole('alertdialog', { name: 'Delete this user?' })).toHaveTextContent(
      'Ada (ada@example.com) and all their data — conversations, settings, credits, plan — will be deleted. This cannot be undone.',
    );
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete user' }));
    expect(await screen.findByText('The user and their data have been deleted.')).toBeInTheDocument();
    expect(queryOf(calls(fetchMock, '/api/admin/deleteUser')[0]).get('id')).toBe('u-ada');
    expect(await screen.findByRole('list', { name: 'People' })).toBeInTheDocument();
  });

  it("lists a person's LinkedIn automations and deletes one after a question", async () => {
    const user = userEvent.setup();
    const automation = {
      automationId: '6f1d3f7e-2a4b-4c1d-9e8f-0a1b2c3d4e5f',
      kind: 'post' as const,
      status: 'Pending' as const,
      dailyRun: false,
      text: 'Three things I learned shipping our first release',
      keyword: null,
      runAt: '2026-12-01T09:30:00.000Z',
      timezone: 'Europe/Paris',
      repeat: 'none' as const,
      visibility: 'PUBLIC' as const,
      postUrn: null,
      postUrl: null,
      publishedAt: null,
      error: null,
      createdAt: '2026-11-26T10:00:00.000Z',
    };
    let listed = [automation];
    const fetchMock = asAdmin({
      'POST /api/admin/automations': () => ok({ automations: listed }),
      'POST /api/admin/deleteAutomation': () => {
        listed = [];
        return ok({ deleted: 1 }, 'The automation has been deleted.');
      },
    });
    renderApp('/admin-portal');
    await user.click(await screen.findByRole('button', { name: /Ada/ }, slow));
    expect(bodyOf(calls(fetchMock, '/api/admin/automations')[0])).toEqual({ id: 'u-ada' });
    const card = (await screen.findByRole('heading', { name: 'LinkedIn automations' })).parentElement!;
    expect(await within(card).findByText('Scheduled post · Pending', {}, slow)).toBeInTheDocument();
    expect(card).toHaveTextContent('Three things I learned shipping our first release');

    await user.click(within(card).getByRole('button', { name: /^Delete: Three things/ }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this automation?' });
    expect(dialog).toHaveTextContent("It will be removed from Ada's automations and will not run again.");
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The automation has been deleted.')).toBeInTheDocument();
    expect(queryOf(calls(fetchMock, '/api/admin/deleteAutomation')[0]).get('automationId')).toBe(
      automation.automationId,
    );
    expect(await within(card).findByText('No automations.')).toBeInTheDocument();
  });

  it('does not offer an admin to delete themself', async () => {
    const user = userEvent.setup();
    asAdmin({ 'POST /api/admin/users': users([makeAdminUser({ id: 'u-admin', name: 'Root', role: 'admin' })]) });
    renderApp('/admin-portal');
    await user.click(await screen.findByRole('button', { name: /Root/ }, slow));
    expect(screen.getByRole('button', { name: 'Force Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete user' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Force Logout' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('You will be signed out of your other devices');
  });

  it('moves between tabs with the arrow keys and keeps the tab in the address', async () => {
    const user = userEvent.setup();
    asAdmin({
      'POST /api/admin/organizations': ok({ available: true, organizations: [], total: 0 }),
      'POST /api/admin/audit': ok({ entries: [], total: 0 }),
    });
    const { router } = renderApp('/admin-portal');
    const usersTab = await screen.findByRole('tab', { name: 'Users' }, slow);
    usersTab.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Organizations' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Organizations' })).toHaveAttribute('aria-selected', 'true');
    expect(router.state.location.search).toBe('?tab=organizations');
    expect(await screen.findByText('No organizations yet.')).toBeInTheDocument();
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Audit' })).toHaveFocus();
    expect(await screen.findByText('Nothing recorded yet.')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  });

  it('filters the error log, deletes an entry and everything before a date, each after a question', async () => {
    const user = userEvent.setup();
    const entry = {
      id: 'e1',
      at: '2026-11-20T09:30:00.000Z',
      requestId: 'req-1',
      method: 'POST',
      url: '/api/ai/chat',
      status: 500,
      userId: null,
      message: 'provider exploded',
      stack: 'Error: provider exploded\n    at run',
    };
    const fetchMock = asAdmin({
      'POST /api/admin/errorsLog': ok({ logs: [entry], total: 1 }),
      'DELETE /api/admin/deleteErrorLog': ok({ deleted: 1 }, 'Error log entries deleted.'),
    });
    renderApp('/admin-portal?tab=errors');
    expect(await screen.findByText('provider exploded', {}, slow)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Status'), '50');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('Enter an HTTP status, such as 500.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Status'), '0');
    await user.type(screen.getByLabelText('Path contains'), '/api/ai');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(bodyOf(calls(fetchMock, '/api/admin/errorsLog').at(-1))).toEqual({
        page: 1,
        pageSize: 20,
        status: 500,
        path: '/api/ai',
        from: new Date('2026-11-01T00:00:00').toISOString(),
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('alertdialog', { name: 'Delete this entry?' })).toBeInTheDocument();
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls(fetchMock, '/api/admin/deleteErrorLog')).toHaveLength(1));
    expect(queryOf(calls(fetchMock, '/api/admin/deleteErrorLog')[0]).get('id')).toBe('e1');

    await user.type(screen.getByLabelText('Delete every entry before'), '2026-11-15');
    await user.click(screen.getByRole('button', { name: 'Delete entries' }));
    expect(screen.getByRole('alertdialog', { name: 'Delete old entries?' })).toHaveTextContent(
      'Every error logged before November 15, 2026 will be deleted.',
    );
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls(fetchMock, '/api/admin/deleteErrorLog')).toHaveLength(2));
    expect(queryOf(calls(fetchMock, '/api/admin/deleteErrorLog')[1]).get('before')).toBe(
      new Date('2026-11-15T00:00:00').toISOString(),
    );
  });

  it('shows the audit log: who, what, on whom, before → after', async () => {
    asAdmin({
      'POST /api/admin/audit': ok({
        entries: [
          {
            id: 'a1',
            at: '2026-11-20T09:30:00.000Z',
            actorId: 'u-admin',
            actorEmail: 'root@example.com',
            action: 'user.credits',
            targetUserId: 'u-ada',
            targetEmail: 'ada@example.com',
            organizationId: null,
            before: { dailyCredit: 3, basicCredit: 1250 },
            after: { dailyCredit: 10, basicCredit: 0 },
          },
        ],
        total: 1,
      }),
    });
    renderApp('/admin-portal?tab=audit');
    const item = (await screen.findAllByRole('listitem', {}, slow)).find((li) =>
      li.textContent?.includes('Credits set'),
    )!;
    expect(item).toHaveTextContent('Credits set · ada@example.com');
    expect(item).toHaveTextContent('by root@example.com');
    expect(item).toHaveTextContent('Daily credits 3 → 10');
    expect(item).toHaveTextContent('Basic credits 1,250 → 0');
  });
});
