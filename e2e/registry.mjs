// The case registry as the engine lists it (`slowpath-cli list --json`): what the
// browser tests iterate, so that a new case needs no list of its own in them.
// `cargo xtask test` passes it in SLOWPATH_REGISTRY; a test run alone asks the CLI.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('..', import.meta.url));

function read() {
  const given = process.env.SLOWPATH_REGISTRY;
  if (given) return JSON.parse(given);
  const listed = execFileSync('cargo', ['run', '--quiet', '--package', 'slowpath-cli', '--', 'list', '--json'], {
    cwd: repository,
    encoding: 'utf8',
  });
  return JSON.parse(listed);
}

/** Every registered case the app has (`in_app`; the Lab has no page yet):
 * `{ id, title, variants: [{ id, group }], reported, listed, in_app }`,
 * the tests' own case (`example-case`, unlisted) among them: the page opens it on
 * this machine's loopback address, where the tests serve it, so that every generic
 * test runs on it too. */
export const REGISTRY = read().filter((entry) => entry.in_app !== false);

/** The registered case ids, the tests' own case included. */
export const CASE_IDS = REGISTRY.map((entry) => entry.id);

/** The cases people are shown, in the landing page's order. */
export const LISTED_IDS = REGISTRY.filter((entry) => entry.listed).map((entry) => entry.id);

/** The cases that reproduce a report (the playground does not). */
export const REPORTED_IDS = REGISTRY.filter((entry) => entry.reported).map((entry) => entry.id);

/** The variant a comparison starts with, as the page picks it: the first fix, else
 * the first other variant. */
export function firstOtherVariant(id) {
  const variants = REGISTRY.find((entry) => entry.id === id)?.variants ?? [];
  const others = variants.slice(1);
  return (others.find((variant) => variant.group === 'fixes') ?? others[0])?.id ?? '';
}
