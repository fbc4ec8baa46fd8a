/** Steps on the Settings screen that its browser suites share. */
import type { Page } from 'playwright-core';

/** Opens Settings (if closed) with its advanced settings unfolded, and waits for them. */
export async function openSettingsAdvanced(page: Page): Promise<void> {
  if ((await page.getByRole('region', { name: 'Settings' }).count()) === 0)
    await page.getByRole('button', { name: 'Settings' }).click();
  // Advanced settings are folded while the profile has no key (first run).
  const advanced = page.locator('details.advanced-settings');
  await advanced.waitFor();
  if (!(await advanced.evaluate((details) => (details as HTMLDetailsElement).open)))
    await advanced.locator('summary').click();
  await page.getByRole('spinbutton', { name: 'Preload count' }).waitFor();
}

/** The theme the page shows: its data-theme attribute (null for "System") and its background colour. */
export function pageTheme(page: Page): Promise<{ attribute: string | null; background: string }> {
  return page.evaluate(() => ({
    attribute: document.documentElement.dataset.theme ?? null,
    background: getComputedStyle(document.documentElement).backgroundColor,
  }));
}
