/**
 * What the log says at start while no account exists. /register makes whoever opens it first the
 * administrator, so when the server listens beyond this machine that is a warning, not a tip.
 */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|\[::1\])$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.trim());
}

export function firstRunNotice(host: string, address: string): { level: 'info' | 'warn'; message: string } {
  const open = `open ${address}/register to create the first administrator`;
  if (isLoopbackHost(host)) return { level: 'info', message: `No account exists yet: ${open}` };
  return {
    level: 'warn',
    message:
      `No account exists yet and the server listens on ${host}, beyond this machine: whoever opens /register first ` +
      `becomes the administrator. ${open[0]!.toUpperCase()}${open.slice(1)} now, or create one with ` +
      '`npm run admin -- create-admin`, or start with HOST=127.0.0.1 until then.',
  };
}
