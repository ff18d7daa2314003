"""The password hasher the suite stores passwords with.

Django's PBKDF2 takes 1,500,000 iterations (0.7 s a password on these machines): the suite
makes and checks passwords over a thousand times. This one writes the same algorithm with
few iterations. A hash records its iterations, so every server the tests start in a
process of its own (production settings) still checks these passwords."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FewIterationsPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1000
