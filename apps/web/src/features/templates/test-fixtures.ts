import type { Shortcut, Signature, Template } from '@parley/contract';
import { makeProfile, mockApi, ok } from '../../test/render-app';

export const IDS = {
  thanks: '3f1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b01',
  meeting: '3f1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b02',
  linkedin: '3f1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b03',
  work: '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c01',
  thx: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c01',
} as const;

const AT = '2026-05-01T10:00:00.000Z';

export function makeTemplate(overrides: Partial<Template> = {}): Template {
  return {
    id: IDS.thanks,
    kind: 'mail',
    title: 'Thanks',
    body: 'Hi {{first_name}},\n\nThank you!\n\n{{my_name}}',
    language: null,
    tone: null,
    length: null,
    position: 0,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** Three templates: a mail thanks, a meeting request, a LinkedIn message. */
export const threeTemplates = (): Template[] => [
  makeTemplate(),
  makeTemplate({
    id: IDS.meeting,
    title: 'Meeting request',
    body: 'Could we meet on {{date}} to talk about the budget?',
    position: 1,
  }),
  makeTemplate({
    id: IDS.linkedin,
    kind: 'message',
    title: 'Connection thanks',
    body: 'Thanks for connecting, {{first_name}}!',
    position: 2,
  }),
];

export function makeSignature(overrides: Partial<Signature> = {}): Signature {
  return {
    id: IDS.work,
    name: 'Work',
    html: '<p><b>Ada Lovelace</b></p><p><a href="https://ada.example.com/" target="_blank" rel="noopener noreferrer">ada.example.com</a></p>',
    defaultFor: ['gmail'],
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

export function makeShortcut(overrides: Partial<Shortcut> = {}): Shortcut {
  return { id: IDS.thx, key: 'thx', text: 'Thank you very much!', createdAt: AT, updatedAt: AT, ...overrides };
}

export type Handlers = Parameters<typeof mockApi>[0];
export type FetchMock = ReturnType<typeof mockApi>;

/** A signed-in person (Ada Lovelace) and the feature's calls answered from the given lists. */
export function signedIn(
  data: { templates?: Template[]; signatures?: Signature[]; shortcuts?: Shortcut[] } = {},
  handlers: Handlers = {},
) {
  localStorage.setItem('token', 'tok');
  return mockApi({
    'GET /api/user/profile': ok(makeProfile({ name: 'Ada', fullName: 'Ada Lovelace' })),
    'GET /api/template/getAll': ok({ templates: data.templates ?? [] }),
    'GET /api/template/signature/getAll': ok({ signatures: data.signatures ?? [] }),
    'GET /api/shortcut-template/': ok({ shortcuts: data.shortcuts ?? [] }),
    ...handlers,
  });
}

export const calls = (fetchMock: FetchMock, key: string) =>
  fetchMock.mock.calls.filter(([url, init]) => {
    const [method, path] = key.split(' ');
    return (
      ((init as RequestInit | undefined)?.method ?? 'GET') === method &&
      new URL(String(url), 'http://localhost').pathname === path
    );
  });
export const bodyOf = (call: unknown[] | undefined) => JSON.parse(String((call?.[1] as RequestInit).body));
export const queryOf = (call: unknown[] | undefined) => new URL(String(call?.[0]), 'http://localhost').searchParams;
export const refused = (status: number, code: string, message: string) => ({
  status,
  body: { status, code, message },
});
