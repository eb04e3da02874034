import { describeStoreContract } from '@plant-store/testing';
import { createMyStore } from './my-store';

describeStoreContract('my store', { create: () => createMyStore() });
