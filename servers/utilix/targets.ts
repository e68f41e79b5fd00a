// utilix's address policy: which IP addresses check_ssl_certificate may connect to. It lives in
// src/internal/address-policy.ts, shared with mcpkit/openapi (redirects and resource links).
export type { TargetCheck, TargetPolicy } from '../../src/internal/address-policy.js';
export {
  PRIVATE_RANGES,
  compileTargetPolicy,
  parseTargetList,
} from '../../src/internal/address-policy.js';
