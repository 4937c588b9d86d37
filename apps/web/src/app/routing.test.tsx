import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../test/render-app';

const slow = { timeout: 4000 };

describe('routing guards', () => {
  it('sends a visitor without a token from a protected page to /login', async () => {
    mockApi({ 'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }) });
    const { router } = renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a signed-in visitor from /login to /home and greets them', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile()) });
    const { router } = renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Hi Ada, welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
    expect(screen.getByText('March 14, 2025', { exact: false })).toBeInTheDocument();
    // monthly use is the sum of the three counters
    expect(screen.getByText('Last 30 days').nextSibling).toHaveTextContent('7');
  });

  it('redirects / by session state and unknown paths to /not-found?page=', async () => {
    const { router } = renderApp('/no/such/page');
    expect(await screen.findByText('This page could not be found.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/not-found');
    expect(router.state.location.search).toBe(`?page=${encodeURIComponent('/no/such/page')}`);
  });

  it('takes /settings, as people type it, to the settings at /setting, keeping the rest of the address', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile()) });
    const { router } = renderApp('/settings/general?tab=1#top');
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting/general'));
    expect(router.state.location.search).toBe('?tab=1');
    expect(router.state.location.hash).toBe('#top');
  });

  it('only follows same-site pages from /redirect', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile()) });
    const first = renderApp('/redirect?page=/profile');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/profile'));
    first.unmount();
    const second = renderApp('/redirect?page=//evil.example/x');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/install'));
  });

  it('after a first login goes to onboarding and sets firstLogin; later logins go home', async () => {
    const user = userEvent.setup();
    let loginCount = 1;
    mockApi({
      'GET /api/auth/config': ok({ googleClientId: null, appName: 'Parley' }),
      'POST /api/auth/login': () => ok({ token: 'tok', user: makeProfile({ loginCount }) }),
      'GET /api/user/profile': () => ok(makeProfile({ loginCount })),
      'GET /api/user/setting': ok({}),
    });
    const { router, unmount } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to Parley' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/on-boarding/1');
    expect(localStorage.getItem('firstLogin')).toBe('true');
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem('login_user_id')).toBe('u1');
    expect(localStorage.getItem('user_details')).toBe('u1');
    unmount();

    localStorage.clear();
    loginCount = 6;
    const second = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Hi Ada, welcome back' })).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/home');
    expect(localStorage.getItem('firstLogin')).toBeNull();
  });
});
