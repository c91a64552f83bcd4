import { Global, Module } from '@nestjs/common';
import { Budgets } from './budgets.service';

/** The shared budgets (budgets.service.ts), for every domain that spends: mails, commands, rows per company. */
@Global()
@Module({ providers: [Budgets], exports: [Budgets] })
export class BudgetsModule {}
