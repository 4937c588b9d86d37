import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderApp } from '../../../test/render-app';
import { makeInvitation, makeTeam, viewer } from '../test-fixtures';

const slow = { timeout: 10_000 };
type Handlers = Parameters<typeof mockApi>[0];
const inviteCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(
    ([url]) => new URL(String(url), 'http://localhost').pathname === '/api/org-admin/invite/users',
  );
const bodyOf = (call: unknown[] | undefined) => JSON.parse(String((call?.[1] as RequestInit).body));

async function openDialog(handlers: Handlers = {}) {
  const user = userEvent.setup();
  localStorage.setItem('token', 'tok');
  const team = makeTeam('admin');
  const fetchMock = mockApi({
    'GET /api/user/profile': ok(viewer()),
    // Two members and one invitation hold three of the five seats.
    'POST /api/org/team': ok({
      ...team,
      organization: { ...team.organization!, members: 2, pendingInvitations: 1 },
      members: team.members.slice(0, 2),
    }),
    'POST /api/org/invites': ok({ invitations: [makeInvitation()] }),
    ...handlers,
  });
  renderApp('/organization');
  await user.click(await screen.findByRole('button', { name: 'New Member' }, slow));
  const dialog = screen.getByRole('dialog', { name: 'Add New Members' });
  return { user, fetchMock, dialog, field: within(dialog).getByLabelText('Email addresses') };
}

describe('Add New Members', { timeout: 30_000 }, () => {
  it('opens on the address field and says how many seats are left', async () => {
    const { dialog, field } = await openDialog();
    expect(field).toHaveFocus();
    expect(dialog).toHaveTextContent('Separate addresses with commas, spaces or new lines, up to 20 at a time.');
    expect(dialog).toHaveTextContent('Seats left: 2.');
  });

  it('names what is not an address, and sends nothing', async () => {
    const { user, fetchMock, dialog, field } = await openDialog();
    await user.type(field, 'grace@example.com, charles@, babbage');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('These are not email addresses: charles@, babbage');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(inviteCalls(fetchMock)).toHaveLength(0);
  });

  it('asks for an address when there is none, and refuses more than 20 at once', async () => {
    const { user, fetchMock, dialog, field } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter at least one email address.');
    await user.click(field);
    await user.paste(Array.from({ length: 21 }, (_, i) => `p${i}@example.com`).join('\n'));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Up to 20 addresses at a time (there are 21).');
    expect(inviteCalls(fetchMock)).toHaveLength(0);
  });

  it('sends each address once, then shows who was invited and who was already a member', async () => {
    const { user, fetchMock, dialog, field } = await openDialog({
      'POST /api/org-admin/invite/users': ok(
        { invited: ['charles@example.com', 'mary@example.com'], alreadyMembers: ['ada@example.com'] },
        'Invitations sent.',
      ),
    });
    await user.click(field);
    await user.paste('Charles@Example.com mary@example.com\nada@example.com, charles@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    await waitFor(() => expect(inviteCalls(fetchMock)).toHaveLength(1));
    expect(bodyOf(inviteCalls(fetchMock)[0])).toEqual({
      emails: ['charles@example.com', 'mary@example.com', 'ada@example.com'],
    });
    const results = await within(dialog).findByRole('status');
    expect(within(results).getByRole('heading', { name: 'Invitation sent to' })).toBeInTheDocument();
    expect(results).toHaveTextContent('charles@example.com');
    expect(results).toHaveTextContent('mary@example.com');
    expect(within(results).getByRole('heading', { name: 'Already members (nothing sent)' })).toBeInTheDocument();
    expect(results).toHaveTextContent('ada@example.com');
    expect(within(dialog).getByRole('button', { name: 'Done' })).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Invite more' }));
    expect(within(dialog).getByLabelText('Email addresses')).toHaveValue('');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Member' })).toHaveFocus();
  });

  it('shows the server’s message when the seats are full', async () => {
    const { user, dialog, field } = await openDialog({
      'POST /api/org-admin/invite/users': {
        status: 400,
        body: {
          status: 400,
          code: 'SEATS_FULL',
          message: 'All 5 seats of the organization are taken. Add seats to the Team plan first.',
        },
      },
    });
    await user.type(field, 'a@example.com b@example.com c@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    expect(
      await within(dialog).findByText('All 5 seats of the organization are taken. Add seats to the Team plan first.'),
    ).toBeInTheDocument();
    // What was typed stays, to be shortened.
    expect(field).toHaveValue('a@example.com b@example.com c@example.com');
  });
});
