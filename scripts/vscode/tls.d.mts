// Types of tls.mjs, for the TypeScript tests and the reference service's CLI that import it.

export type CertificateName = 'good' | 'expired' | 'wrongHost' | 'selfSigned' | 'untrusted' | 'untrustedRoot';

export const LOOPBACK_NAMES: string[];
export const LOOPBACK_ADDRESSES: string[];
/** The only name in the wrong-host certificate. */
export const OTHER_HOST: string;
/** What each served certificate is. */
export const CERTIFICATES: Record<CertificateName, string>;
export const CERTIFICATE_NAMES: CertificateName[];

/** A certificate a server can present: its key and the chain it sends (leaf first), as PEM text and files. */
export interface ServedCertificate {
  name: CertificateName;
  description: string;
  key: string;
  cert: string;
  keyFile: string;
  certFile: string;
}

export interface TestCertificates {
  dir: string;
  /** The private CA a user trusts (what NODE_EXTRA_CA_CERTS or the system store gets). */
  ca: { cert: string; certFile: string };
  /** The root of `untrusted`: never trusted anywhere. */
  otherCa: { cert: string; certFile: string };
  served: Record<CertificateName, ServedCertificate>;
}

/**
 * The test certificates in `dir` (made there unless a complete set is in it); without `dir`,
 * in a folder of this process removed when it exits. Throws a clear message without openssl.
 */
export function makeCertificates(dir?: string): TestCertificates;

/** A runner's certificates and the environment code-server gets (NODE_EXTRA_CA_CERTS, EUS_TLS_DIR, proxy variables emptied). */
export function certificatesForRun(): {
  certificates: TestCertificates;
  env: Record<string, string>;
  remove(): void;
};
