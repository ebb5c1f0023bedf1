// Each case's headline moment, shared by the layout test and the screenshots: the
// chapter that tells the case (matched by its title), or for a case without
// chapters its first notable event. A case missing here (a new one) takes the
// first key moment too.

export const HEADLINES = {
  'coredump-threads': /dumper yields/,
  'sparse-dump': /SIGKILL arrives/,
  'fifo-trigger': /first slow write/,
  'gvisor-threadgroups': /clone waits/,
  'rwsem-playground': null,
};

/** Moves the player to the headline of case `id` and waits for it to be drawn. */
export async function toHeadline(page, id) {
  const title = HEADLINES[id] ?? null;
  const chapters = page.getByTestId('chapters').getByRole('button');
  if (title && (await chapters.count())) {
    await chapters.filter({ hasText: title }).first().click();
    await page.locator('.chapter[aria-current="step"]', { hasText: title }).waitFor();
  } else {
    const before = await page.getByTestId('step-index').innerText();
    await page.keyboard.press('n');
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="step-index"]')?.textContent !== previous,
      before,
    );
  }
  await page.getByTestId('code-current').waitFor();
}
