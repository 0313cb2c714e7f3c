export * from './audit';
export * from './catalog';
export * from './contracts';
export * from './customers';
export * from './outbox';
export * from './settings';
export * from './users';
