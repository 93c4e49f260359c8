import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeOnce } from '../write-once.js';

const message = (seq: number, hash: string) => Buffer.from(`sluice-audit-head:${seq}:${hash}`);

/**
 * The Ed25519 key that signs the chain head. Made on first start; the public half is what an operator keeps
 * elsewhere and hands to `sluice audit verify --key`, so that even a rewrite of the whole file — every hash
 * recomputed — shows, because it cannot carry valid signatures.
 */
export class HeadSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    readonly publicKeyPem: string,
  ) {}

  static loadOrCreate(dir: string): HeadSigner {
    return HeadSigner.fromFile(path.join(dir, 'audit-signing-key.pem'));
  }

  /**
   * The key in `privateFile` (PKCS#8 PEM), made there — with its public half beside it, `….pub.pem` — when
   * missing. Replicas that share one audit log are given the same file (a mounted Secret, read only).
   */
  static fromFile(privateFile: string): HeadSigner {
    const publicFile = privateFile.replace(/(\.pem)?$/, '.pub.pem');
    if (!existsSync(privateFile)) {
      mkdirSync(path.dirname(privateFile), { recursive: true, mode: 0o700 });
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      // Another replica may make it first: then its key is the one, and we read it whole.
      if (writeOnce(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 0o600)) {
        writeFileSync(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
      }
    }
    const privateKey = createPrivateKey(readFileSync(privateFile));
    return new HeadSigner(privateKey, createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString());
  }

  sign(seq: number, hash: string): string {
    return sign(null, message(seq, hash), this.privateKey).toString('base64');
  }
}

export function verifySignature(publicKeyPem: string, seq: number, hash: string, signature: string): boolean {
  try {
    return verify(null, message(seq, hash), createPublicKey(publicKeyPem), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
