/**
 * A quiet install on every current Node line: `npm install` warns when a package's `engines.node` leaves out
 * the running Node. Every package of the lockfile (dev and optional ones too, since `npm install` installs
 * them) must accept the first release of each line that package.json's own `engines` accepts.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};

/** The current lines: 20 (maintenance until its end of life), 22, 24 (LTS) and 26. */
const LINES = [20, 22, 24, 26];
/** The first release of each line that the product's own `engines` accepts (null: the line is refused). */
const firstAccepted = LINES.map((major) => {
  const firsts = pkg.engines.node
    .split('||')
    .map((r) => semver.minVersion(`${r.trim()} >=${major}.0.0 <${major + 1}.0.0-0`))
    .filter((v): v is semver.SemVer => v !== null)
    .sort(semver.compare);
  return { major, version: firsts[0]?.version ?? null };
});

describe('engines', () => {
  it("accept each current Node line in the product's own engines", () => {
    expect(firstAccepted.filter((l) => l.version === null).map((l) => l.major)).toEqual([]);
  });

  it('of every package in the lockfile accept the first release of each line the product accepts', () => {
    const refused: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!range) continue;
      for (const { version } of firstAccepted) {
        if (version && !semver.satisfies(version, range)) refused.push(`${where || 'package.json'}: node ${range} refuses ${version}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
