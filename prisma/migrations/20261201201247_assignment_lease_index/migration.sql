-- CreateIndex
CREATE INDEX "assignment_status_leaseExpiresAt_idx" ON "assignment"("status", "leaseExpiresAt");

