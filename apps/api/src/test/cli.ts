// The command line of the test servers (`npm run fake-* -- --port 4011 …`).

/** The value after `name` (`--chat URL`), or undefined. */
export function cliArg(name: string): string | undefined {
  const at = process.argv.indexOf(name, 2);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/** Whether the flag `name` (`--no-seed`) was given. */
export const cliFlag = (name: string) => process.argv.includes(name, 2);

/** The port to listen on: `-- --port N`, else `PORT=N`, else the server's own. */
export const cliPort = (fallback: number) => Number(cliArg('--port') ?? process.env.PORT ?? fallback);
