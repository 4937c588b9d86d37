import { describe, expect, it } from 'vitest';
import { api } from './api.js';
import { ROUTES } from './routes.js';
import { DEFAULT_SETTINGS } from './settings-values.js';
import { settingsSchema, settingsUpdateSchema } from './settings.js';

describe('contract', () => {
  it('the plain defaults are exactly what the settings schema produces', () => {
    expect(settingsSchema.parse({})).toEqual(DEFAULT_SETTINGS);
  });

  it('a partial settings update never fills in defaults for keys it did not send', () => {
    expect(settingsUpdateSchema.parse({ tone: 'FORMAL' })).toEqual({ tone: 'FORMAL' });
  });

  it('every JSON call has a route and every route a call', () => {
    expect(Object.keys(api).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [name, route] of Object.entries(ROUTES)) expect(api[name as keyof typeof api]).toMatchObject(route);
  });
});
