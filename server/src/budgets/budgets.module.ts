import { Global, Module } from '@nestjs/common';
import { Budgets } from './budgets.service';
import { BudgetRepository } from './budget.repository';

/** The shared budgets (budgets.service.ts), for every domain that spends: mails, commands, rows per company. */
@Global()
@Module({ providers: [Budgets, BudgetRepository], exports: [Budgets] })
export class BudgetsModule {}
