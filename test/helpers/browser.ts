import Chromium from '@sparticuz/chromium';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './servers.js';

/** Where the browser came from, for error messages and the test's own report. */
export type BrowserSource = 'CHROME_PATH' | 'system' | 'bundled';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const BUNDLED_PACKAGE = path.join(ROOT, 'node_modules/@sparticuz/chromium/package.json');

/**
 * The Chromium the browser tests drive: `CHROME_PATH`, else Debian's `/usr/bin/chromium`, else the one that the
 * npm package `@sparticuz/chromium` carries (unpacked into the temp folder on first use), so `npm test` needs
 * nothing beyond `npm install`. `SLUICE_TEST_BROWSER=bundled` skips the first two, to test that fallback on a
 * machine that has a system browser.
 */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<{ executablePath: string; source: BrowserSource }> {
  const forced = env.SLUICE_TEST_BROWSER ?? '';
  if (forced !== '' && forced !== 'bundled') throw new Error(`SLUICE_TEST_BROWSER=${forced}: the only value is "bundled" (or leave it unset)`);
  if (forced === '') {
    if (env.CHROME_PATH) {
      if (!existsSync(env.CHROME_PATH)) throw new Error(`CHROME_PATH=${env.CHROME_PATH} does not exist`);
      return { executablePath: env.CHROME_PATH, source: 'CHROME_PATH' };
    }
    if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: 'system' };
  }
  return { executablePath: await bundledChromium(), source: 'bundled' };
}

/**
 * Unpacks the package's Chromium. The package reuses any `chromium` already in the temp folder, whatever wrote
 * it, so check that it is this version's and complete rather than debug a stranger's binary mid-test.
 */
async function bundledChromium(): Promise<string> {
  const executablePath = await Chromium.executablePath();
  const major = (JSON.parse(readFileSync(BUNDLED_PACKAGE, 'utf8')) as { version: string }).version.split('.')[0];
  let version = '';
  try {
    version = execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch (err) {
    version = `does not run (${(err as Error).message.split('\n')[0]})`;
  }
  if (!version.startsWith(`Chromium ${major}.`)) {
    throw new Error(`${executablePath} is not @sparticuz/chromium's Chromium ${major}: ${version}. Delete it and run again; the package unpacks it anew`);
  }
  return executablePath;
}

/**
 * Starts headless Chromium with its own profile. As root it cannot use its sandbox, and without the
 * background-networking flags it keeps trying to reach Google's hosts, which this machine's closed network refuses.
 * The locale is set as a person's browser has one: the Chromium inside @sparticuz/chromium otherwise takes the
 * process's POSIX locale ("en-US@posix"), which Intl rejects — and uPlot, the console's charts, with it.
 */
export async function launchChromium(profile: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const { executablePath } = await findChromium();
  return chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
    viewport,
    locale: 'en-US',
  });
}

/** A laptop-sized headless browser with one page, collecting what the page logs as errors. */
export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Script errors and CSP violations the page logged (refused requests are expected, so not counted). */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function openTestBrowser(viewport = { width: 1366, height: 768 }): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'sluice-chromium-'));
  // CHROME_PATH, Debian's chromium, or the one @sparticuz/chromium ships: never skipped for want of a browser.
  const context = await launchChromium(profile, viewport);
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) pageErrors.push(msg.text());
  });
  return {
    context,
    page,
    pageErrors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
