import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';

/** Body of POST /api/auth/login. */
export class LoginDto {
  @IsEmail({}, { message: 'Enter a valid email address' })
  @MaxLength(254)
  email!: string;

  @IsString({ message: 'Enter your password' })
  @MinLength(1, { message: 'Enter your password' })
  @MaxLength(1024)
  password!: string;
}
