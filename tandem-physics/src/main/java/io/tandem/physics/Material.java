package io.tandem.physics;

/** Checks of elastic material parameters, each failing with one line that names the owner and the fix. */
final class Material {
    private Material() {
    }

    /** @return E if finite and &gt; 0 */
    static double youngs(String owner, double pa) {
        if (!(pa > 0) || Double.isInfinite(pa)) {
            throw new IllegalArgumentException(owner + ": Young's modulus E must be a finite number > 0 Pa, got " + pa
                    + " (rubber ~1e6, nylon ~3e9, steel ~2e11)");
        }
        return pa;
    }

    /** @return nu if inside (-1, 0.5) */
    static double poisson(String owner, double nu) {
        if (!(nu > -1 && nu < 0.5)) {
            throw new IllegalArgumentException(owner + ": Poisson's ratio nu must be inside (-1, 0.5), got " + nu
                    + " (0.5 is incompressible, which linear elements cannot represent; use 0.45 to 0.49)");
        }
        return nu;
    }

    /** @return the density if finite and &gt; 0 */
    static double density(String owner, double kgPerM3) {
        if (!(kgPerM3 > 0) || Double.isInfinite(kgPerM3)) {
            throw new IllegalArgumentException(owner + ": density must be a finite number > 0 kg/m^3, got " + kgPerM3);
        }
        return kgPerM3;
    }
}
