import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';

/** Body of POST /api/auth/login. */
export class LoginDto {
  @IsEmail({}, { message: 'Enter a valid email address' })
  @MaxLength(254, { message: 'At most 254 characters' })
  email!: string;

  @IsString({ message: 'Enter your password' })
  @MinLength(1, { message: 'Enter your password' })
  @MaxLength(1024, { message: 'At most 1024 characters' })
  password!: string;
}
