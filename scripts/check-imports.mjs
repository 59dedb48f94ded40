// Part of `npm run lint`: import cycles and the area boundaries of DESIGN.md, checked on the resolved
// import graph. (eslint-plugin-import-x would do it, but its native resolver's platform packages are
// missing from this machine's registry, which breaks `npm ci` on a clean clone.)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const sourceRoots = ['packages/contracts/src', 'apps/server/src', 'apps/web/src', 'e2e', 'bench'];
const skip = new Set(['node_modules', 'dist', 'migrations', 'test-results']);

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (skip.has(e.name)) return [];
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from, specifier) {
  let target;
  if (specifier.startsWith('.')) target = path.resolve(path.dirname(from), specifier);
  else if (specifier.startsWith('@clinicrelay/contracts/')) target = path.join(root, 'packages/contracts/src', specifier.slice(23));
  else return null;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith(path.sep) && /\.(ts|tsx|mts)$/.test(candidate)) return candidate;
  }
  return null;
}

const files = sourceRoots.flatMap((r) => sourceFiles(path.join(root, r)));
const graph = new Map(
  files.map((file) => {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = info.importedFiles.map((f) => resolve(file, f.fileName)).filter((d) => d !== null);
    return [file, [...new Set(deps)]];
  }),
);

const rel = (f) => path.relative(root, f);
const problems = [];

// Area boundaries: features and admin areas stand alone; server modules never import another's routes.
const areaOf = (file, folder) => {
  const parts = rel(file).split(path.sep);
  const base = folder.split('/');
  if (base.some((p, i) => parts[i] !== p) || parts.length <= base.length + 1) return null;
  return parts[base.length];
};
for (const [file, deps] of graph) {
  for (const dep of deps) {
    const feature = areaOf(file, 'apps/web/src/features');
    const admin = areaOf(file, 'apps/web/src/admin');
    const mod = areaOf(file, 'apps/server/src/modules');
    const depFeature = areaOf(dep, 'apps/web/src/features');
    const depAdmin = areaOf(dep, 'apps/web/src/admin');
    const inAdmin = rel(dep).startsWith(`apps${path.sep}web${path.sep}src${path.sep}admin${path.sep}`);
    if (feature && ((depFeature && depFeature !== feature) || inAdmin)) {
      problems.push(`${rel(file)} imports ${rel(dep)}: a features/<area> may not import another area or admin/; move shared code to components/, api/ or app/.`);
    }
    if (admin && ((depAdmin && depAdmin !== admin) || depFeature)) {
      problems.push(`${rel(file)} imports ${rel(dep)}: an admin/<area> may not import another admin area or features/; move shared code to components/, api/ or app/.`);
    }
    const depMod = areaOf(dep, 'apps/server/src/modules');
    if (mod && depMod && depMod !== mod && path.basename(dep) === 'routes.ts') {
      problems.push(`${rel(file)} imports ${rel(dep)}: a server module may not import another module's routes.ts; call its service instead.`);
    }
  }
}

// Import cycles: strongly connected components of the graph (Tarjan).
let index = 0;
const stack = [];
const meta = new Map();
function connect(v) {
  meta.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!meta.has(w)) {
      connect(w);
      meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
    } else if (meta.get(w).onStack) {
      meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
  }
  if (meta.get(v).low === meta.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      meta.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) {
      problems.push(`import cycle: ${component.map(rel).sort().join(' ↔ ')}`);
    }
  }
}
for (const file of graph.keys()) if (!meta.has(file)) connect(file);

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} import problem(s) in ${graph.size} files.`);
  process.exit(1);
}
console.log(`Imports: no cycles, no boundary crossings (${graph.size} files).`);
