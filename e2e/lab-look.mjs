// scratch: look at the Lab page
import { startSuite, openPage, waitForApp } from './browser.mjs';
const suite = await startSuite();
const { page, consoleErrors, pageErrors } = await openPage(suite.browser, { viewport: { width: +(process.env.W||1280), height: +(process.env.H||800) } });
await page.goto(suite.url(process.env.HASH || '#/lab'));
await waitForApp(page, { below: false });
await page.waitForTimeout(800);
if (process.env.ACT) { await eval(process.env.ACT); await page.waitForTimeout(1500); }
await page.screenshot({ path: process.env.OUT || '/work/scratch/lab.png' });
console.log('errors', consoleErrors, pageErrors, page.url());
await suite.close();
