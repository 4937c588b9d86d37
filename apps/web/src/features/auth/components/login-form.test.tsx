import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getI18n } from '../../../lib/i18n';
import { mockApi, ok, renderApp } from '../../../test/render-app';

// Pages load on demand; on a busy machine the first one can take a few seconds.
configure({ asyncUtilTimeout: 8000 });

describe('login form', { timeout: 30_000 }, () => {
  it('shows localized validation errors and sends nothing', async () => {
    const user = userEvent.setup();
    const fetchMock = mockApi({ 'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }) });
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');

    await getI18n().changeLanguage('fr');
    await user.click(await screen.findByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Saisissez une adresse e-mail valide.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/auth/login'))).toBe(false);
  });

  it('shows the server message and offers to resend the verification mail', async () => {
    const user = userEvent.setup();
    const fetchMock = mockApi({
      'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }),
      'POST /api/auth/login': {
        status: 403,
        body: { status: 403, code: 'EMAIL_NOT_VERIFIED', message: 'Verify your email first.' },
      },
      'POST /api/auth/resend-verification': ok(null, 'Sent'),
    });
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Verify your email first.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend the email' }));
    expect(await screen.findByText('A new verification email is on its way.')).toBeInTheDocument();
    const resend = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/resend-verification'));
    expect(JSON.parse(String(resend?.[1]?.body))).toEqual({ email: 'Ada@Example.com' });
  });
});
