// ink (through is-in-ci) draws only the last frame when CI is set, so the
// dashboard tests would see no frames on a CI machine. Nothing else in the
// suite reads CI; vitest's own CI behaviour is decided in its main process.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
