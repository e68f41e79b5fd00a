// Browser scripts of the Apps tests (views on the official App SDK, a host page on its AppBridge)
// bundled by esbuild into one ES module, ready to inline in an HTML page.

/** `entry` (a .ts file) and what it imports, as one ES module's text safe inside `<script>`. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  return (out.outputFiles[0]?.text ?? '').replaceAll('</script', '<\\/script');
}
