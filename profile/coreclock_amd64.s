#include "textflag.h"

// func mulChain(n int64, x uint64) uint64
// n trips of four dependent 64-bit multiplications (IMUL r64, r64, three
// cycles each): 12n core cycles. It returns x to the power 4n (mod 2^64).
TEXT ·mulChain(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), BX
	MOVQ $1, AX
mloop:
	IMULQ BX, AX
	IMULQ BX, AX
	IMULQ BX, AX
	IMULQ BX, AX
	DECQ  CX
	JNZ   mloop
	MOVQ  AX, ret+16(FP)
	RET

// func addChain(n int64, x uint64) uint64
// n trips of four dependent additions of a register (ADD r64, r64, one cycle
// each; never an immediate, which newer Intel cores add at register renaming,
// several a cycle): 4n core cycles. It returns 4n times x (mod 2^64).
TEXT ·addChain(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), BX
	XORQ AX, AX
aloop:
	ADDQ BX, AX
	ADDQ BX, AX
	ADDQ BX, AX
	ADDQ BX, AX
	DECQ CX
	JNZ  aloop
	MOVQ AX, ret+16(FP)
	RET
