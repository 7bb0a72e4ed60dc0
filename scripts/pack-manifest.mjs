// `npm pack` / `npm publish`: the packed package.json carries no `prepare`
// script. It builds this checkout on `npm ci`, but in a user's install of
// the tarball npm 11 lists it as an install script to approve (a warning on
// every install) though the tarball ships dist/ already built.
// `prepack` strips it (keeping the file as it was), `postpack` puts it back.
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const saved = 'package.json.prepack';
if (process.argv[2] === 'strip') {
  // A pack that died between the two left the original in `saved`: keep that one.
  if (!existsSync(saved)) copyFileSync('package.json', saved);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  delete pkg.scripts.prepare;
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
} else if (existsSync(saved)) renameSync(saved, 'package.json');
