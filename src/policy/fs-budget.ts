/**
 * How many file system calls one request's path checks may make. Paths are the caller's to choose, and each
 * call is work on the gateway's event loop that every other client waits behind: a request whose paths need
 * more is refused (a check that cannot finish says no), not walked to the end.
 */
export const FS_CALLS_PER_REQUEST = 1000;

export class FsBudget {
  used = 0;

  constructor(readonly limit = FS_CALLS_PER_REQUEST) {}

  /** Counts one call; throws once the request would go over its budget. */
  spend(what: string): void {
    if (++this.used > this.limit) {
      throw new Error(`checking this request's paths needs more than ${this.limit} file system calls (at ${what}); refused rather than walked`);
    }
  }
}
