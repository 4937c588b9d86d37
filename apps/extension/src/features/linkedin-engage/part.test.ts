import { describe, expect, it } from 'vitest';
import { ENGAGE_PATHS } from './part';

describe('the LinkedIn pages that import the engagement script', () => {
  it.each([
    '/feed/',
    '/feed',
    '/search/results/content/',
    '/in/dana-whitfield-example/recent-activity/all/',
    '/in/dana-whitfield-example/recent-activity/shares/',
    '/company/northwind/posts/',
    '/in/kai-tanaka-example/',
    '/dashboard/',
    '/analytics/creator/content/',
    '/sales/ssi',
  ])('%s', (path) => {
    expect(ENGAGE_PATHS.test(path)).toBe(true);
  });

  it.each([
    '/messaging/thread/2-YmE3/',
    '/feed/update/urn:li:activity:7301234567890123456/',
    '/search/results/people/',
    '/jobs/',
    '/in/kai-tanaka-example/details/experience/',
    '/notifications/',
    '/',
  ])('not %s', (path) => {
    expect(ENGAGE_PATHS.test(path)).toBe(false);
  });
});
