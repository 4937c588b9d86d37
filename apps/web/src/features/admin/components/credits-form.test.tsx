import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, renderApp } from '../../../test/render-app';
import { adminProfile, freePlan, makeAdminUser } from '../test-fixtures';

const slow = { timeout: 10_000 };
const calls = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path);

/** The portal open on Ada's details, with the credits form open. */
async function openCreditsForm(handlers: Parameters<typeof mockApi>[0] = {}) {
  localStorage.setItem('token', 'tok');
  const user = userEvent.setup();
  const fetchMock = mockApi({
    'GET /api/user/profile': ok(adminProfile()),
    'POST /api/admin/users': ok({ users: [makeAdminUser()], total: 1, page: 1, pageSize: 20 }),
    'POST /api/admin/userPlan': ok(freePlan()),
    ...handlers,
  });
  renderApp('/admin-portal');
  await user.click(await screen.findByRole('button', { name: /Ada/ }, slow));
  await user.click(screen.getByRole('button', { name: 'Edit credits' }));
  const form = screen.getByRole('form', { name: 'Edit credits' });
  return { user, fetchMock, form };
}

describe('editing credits', { timeout: 30_000 }, () => {
  it("asks for each of the four credits ('Please enter each credit') and sends nothing until they are whole numbers", async () => {
    const { user, fetchMock, form } = await openCreditsForm();
    const daily = within(form).getByLabelText('Daily credits');
    expect(daily).toHaveValue('3');
    expect(within(form).getByLabelText('Basic credits')).toHaveValue('1250');

    await user.clear(daily);
    await user.clear(within(form).getByLabelText('Extra advanced credits'));
    await user.click(within(form).getByRole('button', { name: 'Save credits' }));
    expect(await within(form).findAllByText('Please enter each credit')).toHaveLength(2);
    expect(daily).toHaveAttribute('aria-invalid', 'true');

    await user.type(daily, '-1');
    await user.type(within(form).getByLabelText('Extra advanced credits'), '2.5');
    await user.click(within(form).getByRole('button', { name: 'Save credits' }));
    expect(await within(form).findAllByText('Enter a whole number, 0 or more.')).toHaveLength(2);

    await user.clear(daily);
    await user.type(daily, '99999999999');
    await user.click(within(form).getByRole('button', { name: 'Save credits' }));
    expect(await within(form).findByText('At most 1,000,000,000.')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls(fetchMock, '/api/admin/editUser')).toHaveLength(0);
  });

  it('confirms the four values, then sends exactly them as numbers', async () => {
    const saved = makeAdminUser({
      credits: { dailyCredit: 10, basicCredit: 0, advanceCredit: 5, extraAdvanceCredit: 7 },
    });
    const { user, fetchMock, form } = await openCreditsForm({
      'PUT /api/admin/editUser': ok(saved, 'Changes saved.'),
    });
    const set = async (label: string, value: string) => {
      const field = within(form).getByLabelText(label);
      await user.clear(field);
      await user.type(field, value);
    };
    await set('Daily credits', '10');
    await set('Basic credits', '0');
    await set('Extra advanced credits', ' 7 ');
    await user.click(within(form).getByRole('button', { name: 'Save credits' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Set these credits?' });
    expect(dialog).toHaveTextContent(
      'ada@example.com will have: Daily credits 10 · Basic credits 0 · Advanced credits 5 · Extra advanced credits 7.',
    );
    // Cancel first: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetchMock, '/api/admin/editUser')).toHaveLength(0);

    await user.click(within(form).getByRole('button', { name: 'Save credits' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Set credits' }));
    expect(await screen.findByText('Changes saved.')).toBeInTheDocument();
    const [sent] = calls(fetchMock, '/api/admin/editUser');
    expect(sent?.[1]?.method).toBe('PUT');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      id: 'u-ada',
      credits: { dailyCredit: 10, basicCredit: 0, advanceCredit: 5, extraAdvanceCredit: 7 },
    });
    expect(screen.queryByRole('form', { name: 'Edit credits' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal', async () => {
    const { user, form } = await openCreditsForm({
      'PUT /api/admin/editUser': {
        status: 403,
        body: { status: 403, code: 'FORBIDDEN', message: 'You are not allowed to do this.' },
      },
    });
    await user.click(within(form).getByRole('button', { name: 'Save credits' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Set credits' }));
    expect(await screen.findByText('You are not allowed to do this.')).toBeInTheDocument();
  });
});
