package contract

// ContractVersion is the newest client contract this server serves. Bump it
// only for breaking changes (see docs/contract.md).
const ContractVersion = 2

// MinCompatibleContract is the oldest client contract still served.
const MinCompatibleContract = 2
