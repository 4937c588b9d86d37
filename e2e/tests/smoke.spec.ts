import { expect, test } from '@playwright/test';

test('an unknown route lands on the 404 page carrying the original path', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/not-found\?page=%2Fno%2Fsuch%2Fpage|\/not-found\?page=\/no\/such\/page/);
  await expect(page.getByText('404')).toBeVisible();
  await expect(page.getByText('This page could not be found.')).toBeVisible();
});
