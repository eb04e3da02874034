import { describeStoreContract } from '@plant-store/testing';
import { createMyStore } from './my-store.js';

describeStoreContract('my store', { create: () => createMyStore() });
