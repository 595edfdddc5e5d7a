import { readFile } from 'node:fs/promises';

/** `import sql from './x.sql'` → the file's text as the default export. */
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && url.endsWith('.sql')) {
    const text = await readFile(new URL(url), 'utf8');
    return { format: 'module', shortCircuit: true, source: `export default ${JSON.stringify(text)};` };
  }
  return nextLoad(url, context);
}
