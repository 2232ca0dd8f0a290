import 'reflect-metadata';
import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  HttpCode,
  type INestApplication,
  Injectable,
  Module,
  Post,
  UseGuards,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsObject, IsOptional, IsString } from 'class-validator';

// A NestJS controller as its guide writes it: a guard that compares X-Api-Key (a refused key is
// Nest's 403 {message, error, statusCode}), a DTO checked by ValidationPipe (a bad field is a 400
// whose "message" is an array of sentences), `@HttpCode(200)` on the POST. Written with
// decorators; they are applied here as the TypeScript compiler emits them (`Reflect.decorate`),
// since the corpus runs without a decorator transform.

class ClaimDto {
  userId!: string;
  communityId!: string;
  subdomain!: string;
  questId!: string;
  requestId!: string;
  accounts?: Record<string, unknown>;
}
for (const field of ['userId', 'communityId', 'subdomain', 'questId', 'requestId'] as const) {
  Reflect.decorate([IsString()], ClaimDto.prototype, field);
}
Reflect.decorate([IsOptional(), IsObject()], ClaimDto.prototype, 'accounts');

function apiKeyGuard(apiKey: string) {
  class ApiKeyGuard implements CanActivate {
    canActivate(context: ExecutionContext): boolean {
      const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
      return request.headers['x-api-key'] === apiKey;
    }
  }
  Reflect.decorate([Injectable()], ApiKeyGuard);
  return ApiKeyGuard;
}

function verifyModule(apiKey: string) {
  class VerifyController {
    verify(claim: ClaimDto) {
      return { message: `Welcome, ${claim.userId}!` };
    }
  }
  // @Body(new ValidationPipe()) claim: ClaimDto
  Body(new ValidationPipe({ expectedType: ClaimDto }))(VerifyController.prototype, 'verify', 0);
  const verify = Object.getOwnPropertyDescriptor(VerifyController.prototype, 'verify')!;
  // @Post() @HttpCode(200) @UseGuards(ApiKeyGuard)
  Reflect.decorate(
    [Post(), HttpCode(200), UseGuards(apiKeyGuard(apiKey))],
    VerifyController.prototype,
    'verify',
    verify,
  );
  Reflect.decorate([Controller('verify')], VerifyController);
  class AppModule {}
  Reflect.decorate([Module({ controllers: [VerifyController] })], AppModule);
  return AppModule;
}

/** The Nest app on `/verify`, listening on a free loopback port. */
export async function nestEndpoint(apiKey: string): Promise<INestApplication> {
  const app = await NestFactory.create(verifyModule(apiKey), { logger: false });
  await app.listen(0, '127.0.0.1');
  return app;
}
